// Modal dialogs on <dialog>: the browser traps focus, Escape cancels, and focus returns where it was.
import { api, baseName, fileUrl, join, parent } from './api.js';
import { h, icon } from './dom.js';

export function open(title, body, buttons, onClose) {
	const heading = h('h2', { id: 'dialog-title' }, title);
	const dialog = h('dialog', { 'aria-labelledby': 'dialog-title' }, heading, body, h('div', { class: 'dialog-buttons' }, buttons));
	dialog.addEventListener('close', () => { dialog.remove(); onClose(dialog.returnValue); });
	document.body.append(dialog);
	dialog.showModal();
	return dialog;
}

export function ask(title, label, value, action) {
	return new Promise(resolve => {
		const input = h('input', { id: 'dialog-input', type: 'text', required: true, value, autocomplete: 'off' });
		const form = h('form', { method: 'dialog', id: 'dialog-form' },
			h('label', { for: 'dialog-input' }, label), input);
		const dialog = open(title, form, [
			h('button', { type: 'button', onclick: () => dialog.close('') }, 'Cancel'),
			h('button', { type: 'submit', form: 'dialog-form', class: 'primary', value: 'ok' }, action)],
		result => resolve(result === 'ok' && input.value.trim() ? input.value.trim() : null));
		form.addEventListener('submit', event => {
			event.preventDefault();
			if (input.value.includes('/')) { input.setCustomValidity('A name cannot contain "/".'); input.reportValidity(); return; }
			dialog.close('ok');
		});
		input.addEventListener('input', () => input.setCustomValidity(''));
		const dot = value.lastIndexOf('.');
		input.setSelectionRange(0, dot > 0 ? dot : value.length);
	});
}

// Shows a secret once, selected for copying.
export function reveal(title, message, secret) {
	return new Promise(resolve => {
		const input = h('input', { id: 'dialog-secret', type: 'text', readonly: true, value: secret, autocomplete: 'off' });
		const dialog = open(title, h('div', null, h('p', null, message),
			h('label', { for: 'dialog-secret', class: 'visually-hidden' }, title), input), [
			h('button', { type: 'button', class: 'primary', onclick: () => dialog.close() }, 'Close')],
		() => resolve());
		input.focus();
		input.select();
	});
}

export function confirm(title, message, action) {
	return new Promise(resolve => {
		const ok = h('button', { type: 'button', class: 'danger', onclick: () => dialog.close('ok') }, action);
		const dialog = open(title, h('p', null, message), [
			h('button', { type: 'button', autofocus: true, onclick: () => dialog.close('') }, 'Cancel'), ok],
		result => resolve(result === 'ok'));
	});
}

// Lets the user browse folders and choose one; resolves to its path, or null.
export function pickFolder(title, start, action) {
	return new Promise(resolve => {
		let current = start;
		const crumbs = h('nav', { 'aria-label': 'Folder' });
		const list = h('ul', { class: 'picker-list' });
		const status = h('p', { class: 'picker-status', role: 'status' });
		const choose = h('button', { type: 'button', class: 'primary', onclick: () => dialog.close('ok') }, action);
		const show = async folder => {
			current = folder;
			crumbs.replaceChildren(...trail(folder).map(([name, path], i, all) => i === all.length - 1
				? h('span', { 'aria-current': 'location' }, name)
				: h('button', { type: 'button', class: 'link', onclick: () => show(path) }, name)));
			choose.textContent = action + ' ' + (folder === '/' ? 'here' : 'to ' + baseName(folder));
			choose.disabled = folder === '/';
			list.replaceChildren();
			status.textContent = 'Loading…';
			try {
				const folders = (await api.ls(folder)).results.filter(e => e.type === 'directory');
				folders.sort((a, b) => a.name.localeCompare(b.name));
				list.replaceChildren(...folders.map(e => h('li', null, h('button', { type: 'button', class: 'picker-folder',
					onclick: () => show(join(folder, e.name)) }, icon('folder'), e.name))));
				status.textContent = folders.length ? '' : 'No folders here.';
			}
			catch (error) {
				status.textContent = error.message;
			}
		};
		const dialog = open(title, h('div', { class: 'picker' }, crumbs, status, list), [
			h('button', { type: 'button', onclick: () => dialog.close('') }, 'Cancel'), choose],
		result => resolve(result === 'ok' ? current : null));
		show(start);
	});
}

// The path's folders from the top: [['Home', '/'], ['data', '/data'], …].
export function trail(path) {
	const out = [['Home', '/']];
	let at = '';
	for (const part of path.split('/').filter(Boolean)) {
		at += '/' + part;
		out.push([part, at]);
	}
	return out;
}

const EXTENSIONS = {
	image: ['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'avif', 'ico'],
	audio: ['mp3', 'ogg', 'oga', 'wav', 'flac', 'm4a', 'opus', 'aac'],
	video: ['mp4', 'webm', 'ogv', 'mov', 'm4v', 'mkv'],
	pdf: ['pdf'],
	text: ['txt', 'md', 'csv', 'log', 'json', 'xml', 'yaml', 'yml', 'toml', 'ini', 'conf', 'properties', 'html', 'css',
		'js', 'mjs', 'ts', 'java', 'kt', 'gradle', 'py', 'rb', 'go', 'rs', 'c', 'h', 'cpp', 'hpp', 'cs', 'sh', 'sql', 'svg',
		'gitignore', 'dockerfile', 'env', 'tf', 'lua', 'php', 'pl', 'swift'],
};

export function kind(name) {
	const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : name.toLowerCase();
	for (const [type, list] of Object.entries(EXTENSIONS)) if (list.includes(ext)) return type;
	return null;
}

const TEXT_PREVIEW_BYTES = 256 * 1024;

async function previewBody(path) {
	const src = fileUrl(path);
	switch (kind(baseName(path))) {
		case 'image': return h('img', { src, alt: baseName(path), class: 'preview-image' });
		case 'audio': return h('audio', { src, controls: true, class: 'preview-media' });
		case 'video': return h('video', { src, controls: true, class: 'preview-media' });
		case 'pdf': return h('iframe', { src, title: baseName(path), class: 'preview-frame' });
		case 'text': {
			const response = await fetch(src, { headers: { Range: 'bytes=0-' + (TEXT_PREVIEW_BYTES - 1) }, credentials: 'same-origin' });
			if (!response.ok) throw new Error('The file cannot be read (' + response.status + ').');
			const text = await response.text();
			return h('pre', { class: 'preview-text', tabindex: '0' }, text,
				response.status === 206 ? '\n… (only the first 256 KB is shown)' : '');
		}
		default: return h('p', null, 'No preview for this kind of file.');
	}
}

// Shows files one at a time; ← and → step through the others.
export function preview(paths, index) {
	return new Promise(resolve => {
		const frame = h('div', { class: 'preview' });
		const title = h('span');
		const download = h('a', { class: 'button', download: '' }, 'Download');
		const show = async i => {
			index = (i + paths.length) % paths.length;
			const path = paths[index];
			title.textContent = baseName(path) + (paths.length > 1 ? ` (${index + 1} of ${paths.length})` : '');
			download.href = fileUrl(path, { name: baseName(path) });
			frame.replaceChildren(h('p', null, 'Loading…'));
			try { frame.replaceChildren(await previewBody(path)); }
			catch (error) { frame.replaceChildren(h('p', { role: 'alert' }, error.message)); }
		};
		const buttons = [download, h('button', { type: 'button', class: 'primary', onclick: () => dialog.close() }, 'Close')];
		if (paths.length > 1) {
			buttons.unshift(h('button', { type: 'button', onclick: () => show(index - 1) }, 'Previous'),
				h('button', { type: 'button', onclick: () => show(index + 1) }, 'Next'));
		}
		const dialog = open(title, frame, buttons, () => resolve());
		dialog.classList.add('wide');
		dialog.addEventListener('keydown', event => {
			if (event.target.closest('video, audio, pre')) return;
			if (event.key === 'ArrowLeft') show(index - 1);
			if (event.key === 'ArrowRight') show(index + 1);
		});
		show(index);
	});
}

export { parent };
