// The share dialog of the file manager: make a link to a file or folder (rights, password, expiry, download limit),
// copy it, and list and revoke the links already made to it.
import { api } from './api.js';
import { open } from './dialogs.js';
import { formatTime, h } from './dom.js';

// The link as visitors open it: s/<id> below the UI's root, whatever base path the UI is served under.
export function linkOf(id) {
	return new URL('s/' + encodeURIComponent(id), document.baseURI).href;
}

function describe(share) {
	const rights = share.can_write ? 'read and write' : share.can_read ? 'read-only' : 'upload only';
	const parts = [rights];
	if (share.password) parts.push('password');
	if (share.expire) parts.push('expires ' + formatTime(share.expire));
	if (share.max_downloads) parts.push(share.downloads + ' of ' + share.max_downloads + ' downloads');
	return parts.join(', ');
}

async function copy(input, status) {
	input.select();
	try {
		await navigator.clipboard.writeText(input.value);
		status.textContent = 'Link copied.';
	}
	catch {
		// No clipboard API outside secure contexts: the selected link can still be copied by hand.
		status.textContent = 'Press Ctrl+C to copy the selected link.';
	}
}

function linkRow(share, onRevoke) {
	const input = h('input', { type: 'text', readonly: true, value: linkOf(share.id), class: 'share-link',
		'aria-label': 'Link', autocomplete: 'off' });
	const status = h('span', { class: 'share-status', role: 'status' });
	return h('li', { class: 'share-item', dataset: { id: share.id } },
		input,
		h('span', { class: 'share-description' }, describe(share)),
		h('button', { type: 'button', class: 'share-copy', onclick: () => copy(input, status) }, 'Copy link'),
		h('button', { type: 'button', class: 'danger share-revoke', onclick: () => onRevoke(share) }, 'Revoke'),
		status);
}

// Opens the dialog for one entry ({ path, type }); writable says whether the user may write where it is.
export function shareDialog(entry, writable) {
	return new Promise(resolve => {
		const folder = entry.type === 'directory';
		const choice = (value, label, enabled) => enabled ? h('label', { class: 'choice' },
			h('input', { type: 'radio', name: 'share-rights', value, checked: value === 'read' }), label) : null;
		const password = h('input', { id: 'share-password', type: 'password', autocomplete: 'new-password' });
		const expire = h('input', { id: 'share-expire', type: 'date' });
		const max = h('input', { id: 'share-max', type: 'number', min: '0', step: '1', placeholder: 'No limit' });
		const message = h('p', { class: 'share-message', role: 'status' });
		const list = h('ul', { class: 'share-list', id: 'share-list' });
		const form = h('form', { id: 'share-form', class: 'share-form' },
			h('fieldset', null, h('legend', null, 'Visitors may'),
				choice('read', 'Read (list and download)', true),
				choice('upload', 'Only upload (a drop box: they see nothing)', folder && writable),
				choice('write', 'Read and write', writable)),
			h('label', { for: 'share-password' }, 'Password (optional)'), password,
			h('label', { for: 'share-expire' }, 'Expires (optional, at the end of that day)'), expire,
			h('label', { for: 'share-max' }, 'Most downloads (optional)'), max,
			h('button', { type: 'submit', class: 'primary', id: 'share-create' }, 'Create link'),
			message);
		const refresh = async () => {
			try {
				const shares = (await api.shares(entry.path)).results.filter(share => share.path === entry.path);
				list.replaceChildren(...shares.map(share => linkRow(share, revoke)));
				if (!shares.length) list.replaceChildren(h('li', { class: 'share-none' }, 'No links to this yet.'));
			}
			catch (error) {
				message.textContent = error.message;
			}
		};
		const revoke = async share => {
			try {
				await api.revokeShare(share.id);
				message.textContent = 'Link revoked: it no longer works.';
			}
			catch (error) {
				message.textContent = error.message;
			}
			refresh();
		};
		form.addEventListener('submit', async event => {
			event.preventDefault();
			const rights = form.querySelector('input[name="share-rights"]:checked').value;
			const options = { path: entry.path, can_read: rights !== 'upload', can_upload: rights !== 'read',
				can_write: rights === 'write' };
			if (password.value) options.password = password.value;
			if (expire.value) options.expire = new Date(expire.value + 'T23:59:59').getTime();
			if (max.value) options.max_downloads = Number(max.value);
			try {
				const made = (await api.share(options)).result;
				password.value = '';
				message.textContent = 'Link created.';
				await refresh();
				const row = list.querySelector(`[data-id="${CSS.escape(made.id)}"] .share-link`);
				if (row) row.select();
			}
			catch (error) {
				message.textContent = error.message;
			}
		});
		const dialog = open('Share ' + entry.name, h('div', { class: 'share-dialog' }, form,
			h('h3', null, 'Links to this ' + (folder ? 'folder' : 'file')), list),
		[h('button', { type: 'button', class: 'primary', onclick: () => dialog.close() }, 'Close')], () => resolve());
		dialog.classList.add('wide');
		refresh();
	});
}
