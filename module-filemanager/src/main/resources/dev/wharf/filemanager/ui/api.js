// The file API (see the README): every call sends X-Requested-With, which the server demands with the cookie.
// Addresses are relative, so the UI works under any base path.
export const XRW = { 'X-Requested-With': 'XmlHttpRequest' };

export class ApiError extends Error {
	constructor(status, message) {
		super(message);
		this.status = status;
	}
}

// Where the API is from the page: the file manager is at the UI's root, a share link's page one level below it.
let apiRoot = 'api/';

export function useApiRoot(root) {
	apiRoot = root;
}

// The server decodes queries strictly (no '+' for space), so every value is percent-encoded here.
export function url(endpoint, params) {
	const pairs = Array.isArray(params) ? params : Object.entries(params || {});
	const query = pairs.filter(([, v]) => v !== undefined && v !== null)
		.map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(v)).join('&');
	return apiRoot + endpoint + (query ? '?' + query : '');
}

// The message of an error answer: the envelope's, else a sentence for the status.
export function errorMessage(status, body, retryAfter) {
	let message = null;
	try { message = JSON.parse(body).message; } catch { /* not JSON */ }
	if (!message) {
		message = status === 0 ? 'The server cannot be reached. Check the connection and try again.'
			: status === 413 ? 'Too large for the server.' : 'The server answered ' + status + '.';
	}
	if (retryAfter) message += ' Try again in ' + retryAfter + ' s.';
	return message;
}

export async function call(method, endpoint, params, body, headers) {
	let response;
	try {
		response = await fetch(url(endpoint, params), { method, body, credentials: 'same-origin', cache: 'no-store',
			headers: { ...XRW, ...headers } });
	}
	catch {
		throw new ApiError(0, errorMessage(0));
	}
	const text = await response.text();
	if (!response.ok) {
		throw new ApiError(response.status, errorMessage(response.status, text, response.headers.get('Retry-After')));
	}
	return text ? JSON.parse(text) : {};
}

const JSON_TYPE = { 'Content-Type': 'application/json' };

export const api = {
	session: () => call('GET', 'session'),
	methods: () => call('GET', 'session/methods'),
	mintToken: name => call('POST', 'tokens', { name }),
	login: (username, password) => call('POST', 'session', null, JSON.stringify({ username, password }), JSON_TYPE),
	logout: () => call('DELETE', 'session'),
	ls: path => call('GET', 'files/ls', { path }),
	search: (path, q) => call('GET', 'files/search', { path, q }),
	mkdir: path => call('POST', 'files/mkdir', { path }),
	rm: path => call('POST', 'files/rm', { path }),
	mv: (from, to) => call('POST', 'files/mv', { from, to }),
	cp: (from, to) => call('POST', 'files/cp', { from, to }),
	save: (path, body) => call('POST', 'files/save', { path }, body),
	shares: path => call('GET', 'share', { path }),
	share: options => call('POST', 'share', null, JSON.stringify(options), JSON_TYPE),
	revokeShare: id => call('DELETE', 'share/' + encodeURIComponent(id)),
	shareInfo: id => call('GET', 'share/' + encodeURIComponent(id)),
	proveShare: (id, password) => call('POST', 'share/' + encodeURIComponent(id) + '/proof', null,
		JSON.stringify({ type: 'password', value: password }), JSON_TYPE),
};

export const fileUrl = (path, extra) => url('files/cat', { path, ...extra });
export const zipUrl = paths => url('files/zip', paths.map(p => ['path', p]));

export function join(folder, name) {
	return (folder === '/' ? '' : folder) + '/' + name;
}

export function parent(path) {
	const i = path.lastIndexOf('/');
	return i <= 0 ? '/' : path.slice(0, i);
}

export function baseName(path) {
	return path.slice(path.lastIndexOf('/') + 1);
}
