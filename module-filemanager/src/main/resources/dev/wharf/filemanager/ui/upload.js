// Uploads over the resumable (tus 1.0.0) endpoint with XMLHttpRequest, the only browser API that reports
// upload progress. A transfer that breaks asks the server how much arrived (HEAD) and sends the rest.
import { ApiError, XRW, api, errorMessage, join, url } from './api.js';

const TUS = { 'Tus-Resumable': '1.0.0' };
const RETRIES = 6;

// What a drop holds: real folder drags give directory entries, walked here; a drop of plain files (or of
// files picked with a folder input, which carry webkitRelativePath) uses the files themselves.
export async function dropped(dataTransfer) {
	const items = [...(dataTransfer.items || [])].filter(item => item.kind === 'file');
	const entries = items.map(item => (item.webkitGetAsEntry ? item.webkitGetAsEntry() : null));
	if (entries.some(entry => entry && entry.isDirectory)) {
		const out = [];
		for (const entry of entries) if (entry) await walk(entry, '', out);
		return out;
	}
	return picked(dataTransfer.files);
}

export function picked(files) {
	return [...files].map(file => ({ file, path: file.webkitRelativePath || file.name }));
}

async function walk(entry, prefix, out) {
	if (entry.isFile) {
		out.push({ file: await new Promise((resolve, reject) => entry.file(resolve, reject)), path: prefix + entry.name });
		return;
	}
	out.push({ folder: true, path: prefix + entry.name });
	const reader = entry.createReader();
	for (;;) {
		const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
		if (!batch.length) break;
		for (const child of batch) await walk(child, prefix + entry.name + '/', out);
	}
}

function send(method, address, headers, body, onProgress, signal) {
	return new Promise((resolve, reject) => {
		const xhr = new XMLHttpRequest();
		if (signal) {
			if (signal.aborted) { reject(cancelled()); return; }
			signal.addEventListener('abort', () => xhr.abort(), { once: true });
		}
		xhr.open(method, address);
		for (const [key, value] of Object.entries({ ...XRW, ...TUS, ...headers })) xhr.setRequestHeader(key, value);
		if (onProgress) xhr.upload.onprogress = event => onProgress(event.loaded);
		xhr.onload = () => resolve(xhr);
		xhr.onerror = () => reject(new ApiError(0, errorMessage(0)));
		xhr.onabort = () => reject(signal && signal.aborted ? cancelled() : new ApiError(0, errorMessage(0)));
		xhr.send(body);
	});
}

function failure(xhr) {
	return new ApiError(xhr.status, errorMessage(xhr.status, xhr.responseText, xhr.getResponseHeader('Retry-After')));
}

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

const cancelled = () => new ApiError(-1, 'Cancelled.');

async function uploadFile(file, target, onProgress, signal) {
	if (file.size === 0) {
		await api.save(target, new Blob([]));
		return;
	}
	const created = await send('POST', url('files/upload', { path: target }), { 'Upload-Length': String(file.size) },
		null, null, signal);
	if (created.status !== 201) throw failure(created);
	const location = created.getResponseHeader('Location');
	try {
		await sendAll(file, location, onProgress, signal);
	}
	catch (error) {
		// Tell the server to drop what it kept (tus termination); best effort.
		if (error.status === -1) send('DELETE', location, {}).catch(() => {});
		throw error;
	}
}

async function sendAll(file, location, onProgress, signal) {
	let offset = 0;
	let attempts = 0;
	while (offset < file.size) {
		const start = offset;
		try {
			const xhr = await send('PATCH', location,
				{ 'Upload-Offset': String(start), 'Content-Type': 'application/offset+octet-stream' },
				file.slice(start), loaded => onProgress(start + loaded), signal);
			if (xhr.status === 204) {
				offset = Number(xhr.getResponseHeader('Upload-Offset'));
				attempts = 0;
				continue;
			}
			// 409 (the offset moved, or another request of this upload is still receiving) is resolved by asking again.
			if (xhr.status < 500 && xhr.status !== 409) throw failure(xhr);
		}
		catch (error) {
			if (error.status) throw error;
		}
		if (++attempts > RETRIES) throw new ApiError(0, 'The upload kept failing; it was stopped.');
		await sleep(500 * attempts);
		if (signal && signal.aborted) throw cancelled();
		try {
			const head = await send('HEAD', location, {});
			if (head.status === 404) throw new ApiError(404, 'The server no longer has this upload; start it again.');
			if (head.ok || head.status === 200 || head.status === 204) offset = Number(head.getResponseHeader('Upload-Offset'));
		}
		catch (error) {
			if (error.status) throw error;
		}
		onProgress(offset);
	}
}

// Uploads items ({file, path} or {folder, path}, paths relative to folder) and reports through onChange with
// the list of {path, size, sent, status, error}. Folders are created first; one that exists is fine.
// An aborted signal stops the batch: the file being sent is dropped on the server, the rest are not sent.
export async function upload(folder, items, onChange, signal) {
	const tasks = items.filter(item => item.file).map(item => ({ ...item, size: item.file.size, sent: 0, status: 'queued' }));
	const report = () => onChange(tasks);
	report();
	const folders = new Set();
	for (const item of items) {
		const parts = item.path.split('/');
		for (let i = 1; i < parts.length + (item.folder ? 1 : 0); i++) folders.add(parts.slice(0, i).join('/'));
	}
	for (const name of [...folders].sort((a, b) => a.split('/').length - b.split('/').length)) {
		try {
			await api.mkdir(join(folder, name));
		}
		catch (error) {
			if (error.status !== 409) throw error;
		}
	}
	for (const task of tasks) {
		if (signal && signal.aborted) {
			task.status = 'cancelled';
			continue;
		}
		task.status = 'uploading';
		report();
		try {
			await uploadFile(task.file, join(folder, task.path), sent => { task.sent = sent; report(); }, signal);
			task.sent = task.size;
			task.status = 'done';
		}
		catch (error) {
			task.status = error.status === -1 ? 'cancelled' : 'error';
			task.error = error.message;
		}
		report();
	}
	return tasks;
}
