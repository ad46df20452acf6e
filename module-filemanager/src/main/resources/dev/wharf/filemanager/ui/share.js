// The page of a share link (/s/<id>), for visitors without an account: asks for the link's password when it has
// one, then lists and downloads (read links), or takes uploads into a drop zone (upload-only links show nothing).
// Every call names the share; the server checks the link, and its password's proof cookie, on each one.
import { api, call, join, url, useApiRoot } from './api.js';
import { formatSize, formatTime, h, icon } from './dom.js';

useApiRoot('../api/');

const root = document.getElementById('app');
const id = decodeURIComponent(location.pathname.slice(location.pathname.lastIndexOf('/') + 1));
const withShare = params => [...params, ['share', id]];
let info = null;

function show(...children) {
	root.replaceChildren(h('main', { class: 'share-page' },
		h('h1', null, info ? info.name : 'Shared with you'), ...children));
}

function problem(message) {
	return h('p', { role: 'alert', class: 'message error', id: 'share-error' }, message);
}

async function start() {
	try {
		info = (await api.shareInfo(id)).result;
	}
	catch (error) {
		if (error.status === 401) askPassword();
		else show(problem(error.message));
		return;
	}
	document.title = info.name + ' · Wharf';
	if (info.type === 'file') showFile();
	else if (!info.can_read) show(h('p', null, 'Files you add here go to whoever shared this link. You cannot see what is there.'),
		dropZone('/', false));
	else showFolder('/');
}

function askPassword(message) {
	const input = h('input', { id: 'share-password', type: 'password', required: true, autocomplete: 'current-password' });
	const form = h('form', { id: 'share-password-form', class: 'share-password' },
		h('label', { for: 'share-password' }, 'This link is protected by a password'), input,
		h('button', { type: 'submit', class: 'primary', id: 'share-open' }, 'Open'),
		message ? problem(message) : null);
	form.addEventListener('submit', async event => {
		event.preventDefault();
		try {
			await api.proveShare(id, input.value);
			start();
		}
		catch (error) {
			askPassword(error.message);
		}
	});
	show(form);
	input.focus();
}

function downloadUrl(path, name) {
	return url('files/cat', withShare([['path', path], ['name', name]]));
}

function showFile() {
	show(h('p', null, h('a', { class: 'button primary', id: 'share-download', href: downloadUrl('/', info.name),
		download: info.name }, 'Download ' + info.name)));
}

async function showFolder(folder) {
	let answer;
	try {
		answer = await call('GET', 'files/ls', withShare([['path', folder]]));
	}
	catch (error) {
		show(problem(error.message));
		return;
	}
	const entries = answer.results.slice().sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name)
		: a.type === 'directory' ? -1 : 1));
	const rows = entries.map(entry => {
		const path = join(folder, entry.name);
		const name = entry.type === 'directory'
			? h('button', { type: 'button', class: 'link', onclick: () => showFolder(path) }, icon('folder'), entry.name)
			: h('a', { href: downloadUrl(path, entry.name), download: entry.name, class: 'share-file' }, icon('file'), entry.name);
		return h('tr', null, h('td', null, name), h('td', null, entry.type === 'file' ? formatSize(entry.size) : ''),
			h('td', null, formatTime(entry.time)));
	});
	show(folder === '/' ? null : h('p', null, h('button', { type: 'button', class: 'link', id: 'share-up',
		onclick: () => showFolder(folder.slice(0, folder.lastIndexOf('/')) || '/') }, 'Up')),
	h('p', null, h('a', { class: 'button', id: 'share-zip', href: url('files/zip', withShare([['path', folder]])) },
		'Download everything (zip)')),
	entries.length ? h('table', { class: 'share-listing', id: 'share-listing' },
		h('thead', null, h('tr', null, h('th', null, 'Name'), h('th', null, 'Size'), h('th', null, 'Modified'))),
		h('tbody', null, rows)) : h('p', { id: 'share-empty' }, 'This folder is empty.'),
	info.can_upload ? dropZone(folder, true) : null);
}

function dropZone(folder, refresh) {
	const input = h('input', { type: 'file', id: 'share-upload', multiple: true, class: 'visually-hidden' });
	const status = h('ul', { id: 'share-uploads', class: 'share-uploads', 'aria-live': 'polite' });
	const send = async files => {
		for (const file of files) {
			const line = h('li', null, file.name + ': uploading…');
			status.append(line);
			try {
				await call('POST', 'files/save', withShare([['path', join(folder, file.name)]]), file);
				line.textContent = file.name + ': uploaded';
				line.className = 'done';
			}
			catch (error) {
				line.textContent = file.name + ': ' + error.message;
				line.className = 'error';
			}
		}
		if (refresh) showFolder(folder);
	};
	input.addEventListener('change', () => {
		send([...input.files]);
		input.value = '';
	});
	const zone = h('div', { class: 'drop-zone', id: 'share-drop' },
		h('label', { for: 'share-upload', class: 'button' }, 'Choose files'), ' or drop them here.', input, status);
	zone.addEventListener('dragover', event => {
		event.preventDefault();
		zone.classList.add('over');
	});
	zone.addEventListener('dragleave', () => zone.classList.remove('over'));
	zone.addEventListener('drop', event => {
		event.preventDefault();
		zone.classList.remove('over');
		send([...event.dataTransfer.files]);
	});
	return zone;
}

start();
