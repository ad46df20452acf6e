// The file manager's page. State lives here; render() rebuilds the view from it. The folder shown is the URL's
// fragment (#/data/photos), so links, back and reload work and no server route is needed under any base path.
import { api, baseName, fileUrl, join, parent, zipUrl } from './api.js';
import { ask, confirm, kind, pickFolder, preview, reveal, trail } from './dialogs.js';
import { formatSize, formatTime, h, icon } from './dom.js';
import { shareDialog } from './sharing.js';
import { dropped, picked, upload } from './upload.js';

const root = document.getElementById('app');

const state = {
	user: null,
	path: '/',
	entries: [],
	permissions: {},
	search: null, // { q, results } while search results are shown
	selected: new Set(),
	view: localStorage.getItem('wharf.view') || 'list',
	sort: { key: 'name', descending: false },
	message: null, // { text, error }
	uploads: null,
	loading: false,
	focus: null,
};

function say(text, error) {
	state.message = text ? { text, error: !!error } : null;
	render();
}

function fail(error) {
	if (error.status === 401) {
		state.user = null;
		renderLogin('Your session has ended. Please log in again.');
		return;
	}
	say(error.message, true);
}

function currentFolder() {
	const raw = location.hash.startsWith('#') ? location.hash.slice(1) : '';
	let path;
	try { path = decodeURIComponent(raw); } catch { path = '/'; }
	return path.startsWith('/') ? path.replace(/\/+$/, '') || '/' : '/';
}

function go(path) {
	const hash = '#' + encodeURI(path).replace(/#/g, '%23');
	if (location.hash === hash) load();
	else location.hash = hash;
}

async function load() {
	state.path = currentFolder();
	state.search = null;
	state.loading = true;
	state.selected.clear();
	render();
	try {
		const answer = await api.ls(state.path);
		state.entries = answer.results;
		state.permissions = answer.permissions || {};
		state.message = state.message && state.message.keep ? state.message : null;
	}
	catch (error) {
		state.entries = [];
		state.permissions = {};
		state.loading = false;
		fail(error);
		return;
	}
	state.loading = false;
	render();
}

function shown() {
	const list = state.search ? state.search.results : state.entries.map(e => ({ ...e, path: join(state.path, e.name) }));
	const { key, descending } = state.sort;
	const sign = descending ? -1 : 1;
	return [...list].sort((a, b) => {
		if (a.type !== b.type) return a.type === 'directory' ? -1 : 1;
		const order = key === 'name' ? a.name.localeCompare(b.name, undefined, { numeric: true }) : a[key] - b[key];
		return sign * (order || a.name.localeCompare(b.name));
	});
}

function selection() {
	return shown().filter(e => state.selected.has(e.path));
}

// --- Login -------------------------------------------------------------------------------------------------

function renderLogin(message) {
	const error = h('p', { id: 'login-error', class: 'error', role: 'alert' }, message || '');
	const user = h('input', { id: 'username', name: 'username', autocomplete: 'username', required: true });
	const password = h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });
	const submit = h('button', { type: 'submit', class: 'primary' }, 'Log in');
	const form = h('form', { class: 'login', 'aria-labelledby': 'login-title' },
		h('h1', { id: 'login-title' }, 'Wharf'),
		h('label', { for: 'username' }, 'User name'), user,
		h('label', { for: 'password' }, 'Password'), password,
		submit, error);
	form.addEventListener('submit', async event => {
		event.preventDefault();
		submit.disabled = true;
		error.textContent = '';
		try {
			await api.login(user.value, password.value);
			await start();
		}
		catch (failure) {
			error.textContent = failure.status === 400 || failure.status === 401 || failure.status === 403
				? 'Wrong user name or password.' : failure.message;
			submit.disabled = false;
			password.value = '';
			password.focus();
		}
	});
	root.replaceChildren(form);
	user.focus();
	// A provider's sign-in, when the server offers one: a plain link, the browser goes there and comes back.
	api.methods().then(answer => {
		const oidc = answer.result && answer.result.oidc;
		if (oidc && form.isConnected) {
			form.insertBefore(h('a', { class: 'button sign-in', id: 'oidc-sign-in', href: oidc.url }, 'Sign in with ' + oidc.name), error);
		}
	}, () => { /* Password logins still work. */ });
}

// What the server's sign-in through a provider came to, when it sends the browser back with ?signin=.
const SIGN_IN_MESSAGES = {
	failed: 'The sign-in did not succeed. Please try again.',
	denied: 'This account may not use Wharf. Ask an administrator for access.',
	unavailable: 'The sign-in service cannot be reached. Try again later.',
	busy: 'Too many sign-ins lately. Try again later.',
};

function signInOutcome() {
	const outcome = new URLSearchParams(location.search).get('signin');
	if (outcome === null) return null;
	history.replaceState(null, '', location.pathname + location.hash);
	return SIGN_IN_MESSAGES[outcome] || SIGN_IN_MESSAGES.failed;
}

async function start() {
	const outcome = signInOutcome();
	try {
		state.user = (await api.session()).result;
	}
	catch (error) {
		if (error.status === 401) renderLogin(outcome);
		else root.replaceChildren(h('p', { class: 'error', role: 'alert' }, error.message));
		return;
	}
	await load();
}

// Users of a provider have no password to mint API tokens with: right after signing in, their session may.
async function mintToken() {
	const name = await ask('New API token', 'What the token is for', 'ftp', 'Create');
	if (!name) return;
	try {
		const answer = await api.mintToken(name);
		await reveal('API token “' + name + '”', 'Use it as the password of ' + state.user.username
			+ ' for FTP, the build cache and scripts. It is shown only now: copy it.', answer.result.token);
	}
	catch (error) {
		say(error.message, true);
	}
}

async function logout() {
	try { await api.logout(); } catch { /* the session may be gone already */ }
	state.user = null;
	state.entries = [];
	renderLogin();
}

// --- Actions -----------------------------------------------------------------------------------------------

async function run(work, done) {
	try {
		await work();
		if (done) state.message = { text: done, error: false, keep: true };
	}
	catch (error) {
		fail(error);
		return;
	}
	await (state.search ? search(state.search.q) : load());
	if (state.message) state.message.keep = false;
}

async function newFolder() {
	const name = await ask('New folder', 'Folder name', '', 'Create');
	if (!name) return;
	state.focus = join(state.path, name);
	run(() => api.mkdir(state.focus), 'Created ' + name + '.');
}

async function rename(entry) {
	const name = await ask('Rename', 'New name', entry.name, 'Rename');
	if (!name || name === entry.name) return;
	state.focus = join(parent(entry.path), name);
	run(() => api.mv(entry.path, state.focus), 'Renamed to ' + name + '.');
}

async function transfer(entries, verb) {
	const target = await pickFolder((verb === 'mv' ? 'Move ' : 'Copy ') + describe(entries), state.path,
		verb === 'mv' ? 'Move' : 'Copy');
	if (!target) return;
	run(async () => {
		for (const entry of entries) await api[verb](entry.path, join(target, entry.name));
	}, (verb === 'mv' ? 'Moved ' : 'Copied ') + describe(entries) + ' to ' + target + '.');
}

async function remove(entries) {
	if (!await confirm('Delete ' + describe(entries) + '?',
		'This cannot be undone' + (entries.some(e => e.type === 'directory') ? ': folders are deleted with everything in them.' : '.'),
		'Delete')) return;
	run(async () => {
		for (const entry of entries) await api.rm(entry.path);
	}, 'Deleted ' + describe(entries) + '.');
}

function describe(entries) {
	return entries.length === 1 ? '“' + entries[0].name + '”' : entries.length + ' items';
}

function download(entries) {
	const single = entries.length === 1 && entries[0].type === 'file';
	const link = h('a', { href: single ? fileUrl(entries[0].path, { name: entries[0].name }) : zipUrl(entries.map(e => e.path)),
		download: single ? entries[0].name : 'download.zip', hidden: true });
	document.body.append(link);
	link.click();
	link.remove();
}

async function open(entry) {
	if (entry.type === 'directory') {
		go(entry.path);
		return;
	}
	if (!kind(entry.name)) {
		download([entry]);
		return;
	}
	const files = shown().filter(e => e.type === 'file' && kind(e.name));
	await preview(files.map(e => e.path), files.findIndex(e => e.path === entry.path));
	focusRow(entry.path);
}

async function search(q) {
	if (!q) { load(); return; }
	state.loading = true;
	render();
	try {
		const answer = await api.search(state.path, q);
		state.search = {
			q,
			results: answer.results.map(e => ({ ...e, path: e.path.replace(/\/$/, '') })),
		};
		state.selected.clear();
	}
	catch (error) {
		fail(error);
	}
	state.loading = false;
	render();
}

async function startUpload(items) {
	if (!items.length) return;
	if (state.permissions.can_upload === false || state.path === '/') {
		say(state.path === '/' ? 'Open a folder first: files go into a mount\'s folders.' : 'This folder is read-only.', true);
		return;
	}
	const folder = state.path;
	const stop = new AbortController();
	state.cancelUploads = () => stop.abort();
	try {
		const tasks = await upload(folder, items, tasks => { state.uploads = tasks; renderUploads(); }, stop.signal);
		const failed = tasks.filter(t => t.status === 'error');
		const dropped = tasks.filter(t => t.status === 'cancelled').length;
		state.message = dropped ? { text: 'Upload cancelled: ' + dropped + ' of ' + tasks.length + ' files not sent.', error: false, keep: true }
			: failed.length
			? { text: failed.length + ' of ' + tasks.length + ' uploads failed: ' + failed[0].path + ': ' + failed[0].error, error: true, keep: true }
			: { text: 'Uploaded ' + tasks.length + (tasks.length === 1 ? ' file.' : ' files.'), error: false, keep: true };
	}
	catch (error) {
		state.message = { text: error.message, error: true, keep: true };
	}
	state.cancelUploads = null;
	if (state.path === folder && !state.search) await load();
	else render();
}

// --- Rendering ---------------------------------------------------------------------------------------------

function render() {
	if (!state.user) return;
	const active = document.activeElement;
	const focusKey = active && active.closest && active.closest('[data-path]') ? active.closest('[data-path]').dataset.path : null;
	const focusId = active && active.id;
	root.replaceChildren(header(), toolbar(), messageBar(), uploadsPanel(), listing());
	const again = (state.focus && document.querySelector(`[data-path="${CSS.escape(state.focus)}"]`))
		|| (focusKey && document.querySelector(`[data-path="${CSS.escape(focusKey)}"]`))
		|| (focusId && document.getElementById(focusId));
	if (again) {
		again.focus();
		state.focus = null;
	}
}

function header() {
	const input = h('input', { id: 'search', type: 'search', placeholder: 'Search this folder', value: state.search ? state.search.q : '' });
	const form = h('form', { role: 'search', class: 'search' }, h('label', { for: 'search', class: 'visually-hidden' }, 'Search'), input);
	form.addEventListener('submit', event => { event.preventDefault(); search(input.value.trim()); });
	return h('header', { class: 'top' },
		h('a', { href: '#/', class: 'brand' }, 'Wharf'),
		form,
		h('span', { class: 'user' }, state.user.username),
		state.user.mint_token_until > Date.now() ? h('button', { type: 'button', id: 'mint-token', onclick: mintToken }, 'API token…') : null,
		h('button', { type: 'button', id: 'logout', onclick: logout }, 'Log out'));
}

function toolbar() {
	const writable = state.path !== '/' && state.permissions.can_create_directory !== false;
	const files = h('input', { type: 'file', id: 'upload-files', multiple: true, class: 'visually-hidden',
		onchange: event => { startUpload(picked(event.target.files)); event.target.value = ''; } });
	const folder = h('input', { type: 'file', id: 'upload-folder', webkitdirectory: true, class: 'visually-hidden',
		onchange: event => { startUpload(picked(event.target.files)); event.target.value = ''; } });
	const selected = selection();
	const one = selected.length === 1 ? selected[0] : null;
	const canChange = state.permissions.can_rename !== false;
	const sort = h('select', { id: 'sort', onchange: event => {
		const [key, order] = event.target.value.split(':');
		state.sort = { key, descending: order === 'desc' };
		render();
	} }, [['name:asc', 'Name A–Z'], ['name:desc', 'Name Z–A'], ['time:desc', 'Newest'], ['time:asc', 'Oldest'],
		['size:desc', 'Largest'], ['size:asc', 'Smallest']].map(([value, label]) =>
		h('option', { value, selected: value === state.sort.key + ':' + (state.sort.descending ? 'desc' : 'asc') }, label)));
	return h('div', { class: 'toolbar' },
		h('nav', { class: 'crumbs', 'aria-label': 'Breadcrumb' }, h('ol', null, trail(state.path).map(([name, path], i, all) =>
			h('li', null, i === all.length - 1 && !state.search
				? h('span', { 'aria-current': 'page' }, name)
				// go(): a link to the folder already shown (from search results) must still show it.
				: h('a', { href: '#' + encodeURI(path), onclick: event => {
					if (event.ctrlKey || event.metaKey || event.shiftKey || event.button) return;
					event.preventDefault();
					go(path);
				} }, name))),
			state.search ? h('li', null, h('span', { 'aria-current': 'page' }, 'Search: ' + state.search.q)) : null)),
		h('div', { class: 'actions', role: 'toolbar', 'aria-label': 'Actions' },
			selected.length ? [
				h('span', { class: 'count' }, selected.length + ' selected'),
				h('button', { type: 'button', id: 'download', onclick: () => download(selected) },
					one && one.type === 'file' ? 'Download' : 'Download zip'),
				canChange ? h('button', { type: 'button', id: 'rename', disabled: !one, onclick: () => rename(one) }, 'Rename') : null,
				canChange ? h('button', { type: 'button', id: 'move', onclick: () => transfer(selected, 'mv') }, 'Move…') : null,
				h('button', { type: 'button', id: 'copy', onclick: () => transfer(selected, 'cp') }, 'Copy…'),
				state.permissions.can_share ? h('button', { type: 'button', id: 'share', disabled: !one,
					onclick: () => shareDialog(one, state.permissions.can_upload !== false) }, 'Share…') : null,
				canChange ? h('button', { type: 'button', id: 'delete', class: 'danger', onclick: () => remove(selected) }, 'Delete') : null,
			] : [
				writable ? h('button', { type: 'button', id: 'new-folder', onclick: newFolder }, 'New folder') : null,
				writable ? [files, h('label', { for: 'upload-files', class: 'button' }, 'Upload files')] : null,
				writable ? [folder, h('label', { for: 'upload-folder', class: 'button' }, 'Upload folder')] : null,
			],
			h('label', { for: 'sort', class: 'visually-hidden' }, 'Sort by'), sort,
			h('button', { type: 'button', id: 'view', 'aria-pressed': state.view === 'grid' ? 'true' : 'false', onclick: () => {
				state.view = state.view === 'grid' ? 'list' : 'grid';
				localStorage.setItem('wharf.view', state.view);
				render();
			} }, 'Grid view')));
}

function messageBar() {
	if (!state.message) return h('div', { id: 'message', role: 'status' });
	const text = state.message.text;
	return h('div', { id: 'message', class: state.message.error ? 'message error' : 'message', role: state.message.error ? 'alert' : 'status' },
		h('span', null, text),
		h('button', { type: 'button', class: 'link', 'aria-label': 'Dismiss message', onclick: () => say(null) }, '×'));
}

function uploadsPanel() {
	const panel = h('section', { id: 'uploads', 'aria-label': 'Uploads', hidden: !state.uploads });
	renderUploadsInto(panel);
	return panel;
}

function renderUploads() {
	const panel = document.getElementById('uploads');
	if (panel) renderUploadsInto(panel);
}

function renderUploadsInto(panel) {
	const tasks = state.uploads;
	if (!tasks) return;
	panel.hidden = false;
	const total = tasks.reduce((sum, t) => sum + t.size, 0);
	const sent = tasks.reduce((sum, t) => sum + t.sent, 0);
	const done = tasks.every(t => t.status !== 'queued' && t.status !== 'uploading');
	panel.replaceChildren(
		h('div', { class: 'uploads-head' },
			h('label', { for: 'upload-total' }, done ? 'Uploads finished' : 'Uploading ' + tasks.length + ' files'),
			h('progress', { id: 'upload-total', max: total || 1, value: total ? sent : (done ? 1 : 0) }),
			h('span', null, formatSize(sent) + ' of ' + formatSize(total)),
			done ? h('button', { type: 'button', class: 'link', onclick: () => { state.uploads = null; panel.hidden = true; } }, 'Hide')
				: h('button', { type: 'button', class: 'link', id: 'cancel-uploads', onclick: () => state.cancelUploads && state.cancelUploads() }, 'Cancel')),
		h('ul', null, tasks.map((t, i) => h('li', { class: 'upload-' + t.status },
			h('label', { for: 'upload-' + i }, t.path),
			h('progress', { id: 'upload-' + i, max: t.size || 1, value: t.size ? t.sent : (t.status === 'done' ? 1 : 0) }),
			h('span', null, t.status === 'error' ? t.error : t.status === 'done' ? 'Done' : t.status === 'cancelled' ? 'Cancelled'
				: t.status === 'queued' ? 'Waiting' : formatSize(t.sent))))));
}

function listing() {
	const entries = shown();
	const area = h('main', { id: 'files', class: 'files view-' + state.view, 'aria-busy': state.loading ? 'true' : 'false' });
	area.addEventListener('dragover', event => { event.preventDefault(); area.classList.add('dropping'); });
	area.addEventListener('dragleave', () => area.classList.remove('dropping'));
	area.addEventListener('drop', async event => {
		event.preventDefault();
		area.classList.remove('dropping');
		startUpload(await dropped(event.dataTransfer));
	});
	if (state.loading) {
		area.append(h('p', { class: 'empty' }, 'Loading…'));
		return area;
	}
	if (!entries.length) {
		area.append(h('p', { class: 'empty' }, state.search ? 'Nothing found.' : state.path === '/' ? 'No folders are shared with you.'
			: 'This folder is empty. Drop files here or use Upload.'));
		return area;
	}
	const all = h('input', { type: 'checkbox', id: 'select-all', checked: entries.every(e => state.selected.has(e.path)),
		indeterminate: state.selected.size > 0 && !entries.every(e => state.selected.has(e.path)),
		onchange: event => {
			state.selected = new Set(event.target.checked ? entries.map(e => e.path) : []);
			render();
		} });
	const rows = entries.map((entry, i) => row(entry, i, entries));
	area.append(h('div', { class: 'list-head' }, all, h('label', { for: 'select-all' }, 'Select all'),
		h('span', { class: 'count' }, entries.length + (entries.length === 1 ? ' item' : ' items'))),
	h('ul', { class: 'entries', 'aria-label': state.search ? 'Search results' : 'Files in ' + (state.path === '/' ? 'Home' : baseName(state.path)) }, rows));
	return area;
}

function thumbnail(entry) {
	if (entry.type === 'file' && kind(entry.name) === 'image') {
		return h('img', { class: 'thumb', loading: 'lazy', alt: '', src: fileUrl(entry.path, { thumbnail: 'true', v: entry.time }),
			onerror: event => event.target.replaceWith(icon('file')) });
	}
	return icon(entry.type === 'directory' ? 'folder' : 'file');
}

function row(entry, index, entries) {
	const checked = state.selected.has(entry.path);
	const id = 'select-' + index;
	const box = h('input', { type: 'checkbox', id, checked, tabindex: '-1', onchange: () => {
		toggle(entry.path);
	} });
	const name = h('button', { type: 'button', class: 'name', 'data-path': entry.path, title: entry.path,
		onclick: event => {
			if (event.ctrlKey || event.metaKey) toggle(entry.path);
			else if (event.shiftKey) range(entries, index);
			else open(entry);
		},
		onkeydown: event => keys(event, entry, index, entries) }, entry.name);
	return h('li', { class: checked ? 'entry selected' : 'entry', dataset: { type: entry.type } },
		h('label', { for: id, class: 'select' }, box, h('span', { class: 'visually-hidden' }, 'Select ' + entry.name)),
		h('span', { class: 'thumb-box' }, thumbnail(entry)),
		name,
		state.search ? h('span', { class: 'where' }, parent(entry.path)) : null,
		h('span', { class: 'size' }, entry.type === 'file' ? formatSize(entry.size) : ''),
		h('span', { class: 'time' }, formatTime(entry.time)));
}

function toggle(path) {
	if (state.selected.has(path)) state.selected.delete(path);
	else state.selected.add(path);
	state.focus = path;
	render();
}

function range(entries, index) {
	const anchor = entries.findIndex(e => state.selected.has(e.path));
	const [from, to] = anchor < 0 ? [index, index] : [Math.min(anchor, index), Math.max(anchor, index)];
	for (let i = from; i <= to; i++) state.selected.add(entries[i].path);
	state.focus = entries[index].path;
	render();
}

function focusRow(path) {
	const el = document.querySelector(`[data-path="${CSS.escape(path)}"]`);
	if (el) el.focus();
}

// Keys on a file: arrows move, Space selects, Enter opens, F2 renames, Delete deletes, Backspace goes up.
function keys(event, entry, index, entries) {
	const columns = state.view === 'grid' ? Math.max(1, Math.round(document.querySelector('.entries').clientWidth / 168)) : 1;
	const move = { ArrowDown: columns, ArrowUp: -columns, ArrowRight: state.view === 'grid' ? 1 : 0,
		ArrowLeft: state.view === 'grid' ? -1 : 0, Home: -index, End: entries.length - 1 - index }[event.key];
	if (move) {
		event.preventDefault();
		const next = entries[Math.min(entries.length - 1, Math.max(0, index + move))];
		if (event.shiftKey) { state.selected.add(entry.path); state.selected.add(next.path); state.focus = next.path; render(); }
		else focusRow(next.path);
	}
	else if (event.key === ' ') { event.preventDefault(); toggle(entry.path); }
	else if (event.key === 'F2' && state.permissions.can_rename !== false) { event.preventDefault(); rename(entry); }
	else if (event.key === 'Delete' && state.permissions.can_delete !== false) {
		event.preventDefault();
		remove(state.selected.size ? selection() : [entry]);
	}
	else if (event.key === 'a' && (event.ctrlKey || event.metaKey)) {
		event.preventDefault();
		state.selected = new Set(entries.map(e => e.path));
		state.focus = entry.path;
		render();
	}
}

document.addEventListener('keydown', event => {
	if (!state.user || document.querySelector('dialog[open]')) return;
	const typing = event.target.closest('input, textarea, select');
	if (event.key === '/' && !typing) { event.preventDefault(); document.getElementById('search').focus(); }
	else if (event.key === 'Escape' && state.selected.size) { state.selected.clear(); render(); }
	else if ((event.key === 'Backspace' && !typing) || (event.key === 'ArrowUp' && event.altKey)) {
		if (state.path !== '/') { event.preventDefault(); const from = state.path; state.focus = from; go(parent(from)); }
	}
});

window.addEventListener('hashchange', () => { if (state.user) load(); });
// A drop outside the listing must not make the browser open the file in place of the page.
window.addEventListener('dragover', event => event.preventDefault());
window.addEventListener('drop', event => event.preventDefault());

start();
