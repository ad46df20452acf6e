// A tiny element builder: h('button', {class: 'x', onclick: f}, 'Label', child, [more]).
// Attributes named on* become listeners; false/null attributes and children are left out.
export function h(tag, attrs, ...children) {
	const el = tag.startsWith('svg:')
		? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
		: document.createElement(tag);
	for (const [key, value] of Object.entries(attrs || {})) {
		if (value === false || value === null || value === undefined) continue;
		if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
		else if (key === 'dataset') Object.assign(el.dataset, value);
		else if (key === 'value' || key === 'checked' || key === 'indeterminate') el[key] = value;
		else el.setAttribute(key, value === true ? '' : value);
	}
	append(el, children);
	return el;
}

function append(el, children) {
	for (const child of children) {
		if (child === null || child === undefined || child === false) continue;
		if (Array.isArray(child)) append(el, child);
		else el.append(child instanceof Node ? child : String(child));
	}
}

const ICONS = {
	folder: 'M2 5a2 2 0 0 1 2-2h5l2 2h9a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2z',
	file: 'M6 2h8l6 6v12a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2zm8 0v6h6',
};

export function icon(name) {
	return h('svg:svg', { viewBox: '0 0 24 24', class: 'icon icon-' + name, 'aria-hidden': 'true', focusable: 'false' },
		h('svg:path', { d: ICONS[name] }));
}

export function formatSize(bytes) {
	if (bytes < 1024) return bytes + ' B';
	const units = ['KB', 'MB', 'GB', 'TB'];
	let value = bytes / 1024, unit = 0;
	while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
	return value.toFixed(value < 10 ? 1 : 0) + ' ' + units[unit];
}

export function formatTime(ms) {
	return ms ? new Date(ms).toLocaleString() : '';
}
