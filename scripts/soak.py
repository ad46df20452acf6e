#!/usr/bin/env python3
"""Soak run of Wharf: the real jar in a JVM profile, real backends, all four protocols at once.

Started by scripts/soak.sh (read its header for the knobs). This program:

1. starts memcached and an OpenSSH sshd (SFTP only, its own keys and config) on free ports of 127.0.0.1;
2. starts platform-app/target/wharf.jar through platform-app/bin/wharf with a JVM profile (p128 by default),
   with a local mount (file manager + FTP), an sftp mount on that sshd (file manager + FTP), a memcached
   mount (build cache) and a local mount served as a static site;
3. drives steady, modest load from a few client threads: file manager (upload, list, download), FTP
   (STOR, RETR, NLST), build cache (PUT, GET) and static GETs; every download is checked against what was
   acknowledged (SHA-256), so a lost or truncated file counts as corrupt, never as a success;
4. at half time kills (SIGKILL) the chosen backend(s) and restarts them after an outage on the same port;
5. every SAMPLE_EVERY seconds forces a GC (jcmd GC.run) and writes a line to soak.csv: operations and
   errors in the window, heap after GC, metaspace, direct buffers, RSS, threads, file descriptors and TCP
   connections of the Wharf process;
6. at the end compares the last third of the samples with the first third (after the warm-up) against the
   tolerances below, writes summary.md, and exits 1 if a line is not flat, if anything was corrupt or lost,
   or if errors happened outside the outage window.
"""

import argparse
import base64
import ftplib
import hashlib
import http.client
import io
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time

# Flatness: (column, how to compare, relative tolerance, absolute tolerance in the column's unit). Heap is the
# live data after a forced full GC; RSS may still grow a little as C1 compiles and malloc arenas settle;
# threads may step up once, when a bounded pool (sftp I/O threads, FTP data) is filled lazily after the
# backend's restart, but must not climb; fds and connections follow the fixed number of clients.
# "median": median of the last third <= median of the first third * (1 + rel) + abs.
# "max": largest value of the last third <= largest of the first third * (1 + rel) + abs.
TOLERANCES = [
	("heap_after_gc_kb", "median", 0.20, 2048),
	("metaspace_kb", "median", 0.05, 2048),
	("direct_kb", "median", 0.25, 2048),
	("rss_kb", "median", 0.10, 16384),
	("rss_anon_kb", "median", 0.10, 16384),
	("threads", "max", 0.0, 8),
	("fds", "max", 0.0, 16),
	("tcp_established", "max", 0.0, 16),
	("tcp_close_wait", "max", 0.0, 4),
]

# Unexpected errors allowed in the whole run (outside the outage window): a busy machine may time out a
# request now and then; more than this is a failure. Corrupt or lost files are never allowed.
UNEXPECTED_ERRORS_ALLOWED_PER_MILLE = 1.0
UNEXPECTED_ERRORS_ALLOWED_MIN = 3

HOST = "127.0.0.1"


def log(message):
	print(time.strftime("%H:%M:%S ") + message, flush=True)


def free_port():
	with socket.socket() as s:
		s.bind((HOST, 0))
		return s.getsockname()[1]


def endpoint(hex_address):
	"""An address of /proc/net/tcp (hex IP:port) as "port" (the host is always the loopback here)."""
	return str(int(hex_address.rsplit(":", 1)[1], 16))


def content(seed, size):
	return random.Random(seed).randbytes(size)


def digest(data):
	return hashlib.sha256(data).hexdigest()


class Stats:
	"""Counts per protocol; a window is read and reset by the sampler."""

	def __init__(self):
		self.lock = threading.Lock()
		self.window = self._empty()
		self.total = {}
		self.errors = []
		self.outage = None  # (backends, start) while errors on those backends are expected
		self.outage_until = 0.0

	@staticmethod
	def _empty():
		return {"ops": 0, "expected": 0, "unexpected": 0, "corrupt": 0, "misses": 0, "latencies": []}

	last_outage_backends = ()

	def record(self, protocol, backend, outcome, latency, detail=""):
		"""outcome: ok, miss, error, corrupt."""
		with self.lock:
			expected = outcome == "error" and (
				(self.outage is not None and backend in self.outage[0])
				or (time.monotonic() < self.outage_until and backend in self.last_outage_backends))
			total = self.total.setdefault(protocol, {"ops": 0, "ok": 0, "miss": 0, "expected": 0, "unexpected": 0,
				"corrupt": 0})
			total["ops"] += 1
			self.window["ops"] += 1
			if outcome == "ok":
				total["ok"] += 1
				self.window["latencies"].append(latency)
			elif outcome == "miss":
				total["miss"] += 1
				self.window["misses"] += 1
			elif outcome == "corrupt":
				total["corrupt"] += 1
				self.window["corrupt"] += 1
				self.errors.append((time.time(), protocol, backend, "CORRUPT " + detail))
			elif expected:
				total["expected"] += 1
				self.window["expected"] += 1
			else:
				total["unexpected"] += 1
				self.window["unexpected"] += 1
				self.errors.append((time.time(), protocol, backend, detail))

	def take_window(self):
		with self.lock:
			window, self.window = self.window, self._empty()
			return window


class Expectations:
	"""What each name may hold: the digests of its acknowledged write and of any write whose outcome is unknown."""

	def __init__(self):
		self.lock = threading.Lock()
		self.names = {}

	def acknowledged(self, name, hexdigest):
		with self.lock:
			self.names[name] = {hexdigest}

	def unknown(self, name, hexdigest):
		with self.lock:
			self.names.setdefault(name, {None}).add(hexdigest)

	def pick(self, rng, prefix):
		with self.lock:
			names = [n for n in self.names if n.startswith(prefix)]
			if not names:
				return None, None
			name = rng.choice(names)
			return name, set(self.names[name])


class Worker(threading.Thread):

	def __init__(self, soak, name, protocol, backend, period):
		super().__init__(name=name, daemon=True)
		self.soak = soak
		self.protocol = protocol
		self.backend = backend
		self.period = period
		self.rng = random.Random(name)
		self.counter = 0

	def run(self):
		next_start = time.monotonic()
		while not self.soak.stopping.is_set():
			try:
				self.iteration()
			except Exception as ex:  # a bug in the driver must not end the run silently
				self.soak.stats.record(self.protocol, self.backend, "error", 0, "driver: %r" % ex)
				self.reset()
			next_start += self.period
			delay = next_start - time.monotonic()
			if delay > 0:
				self.soak.stopping.wait(delay)
			else:
				next_start = time.monotonic()
		self.reset()

	def timed(self, outcome_of):
		started = time.monotonic()
		try:
			outcome, detail = outcome_of()
		except Exception as ex:
			outcome, detail = "error", "%s: %r" % (self.name, ex)
			self.reset()
		self.soak.stats.record(self.protocol, self.backend, outcome, time.monotonic() - started, detail)
		return outcome

	def reset(self):
		pass


class HttpWorker(Worker):

	def __init__(self, *args, **kwargs):
		super().__init__(*args, **kwargs)
		self.connection = None

	def request(self, method, target, body=None, headers=None):
		if self.connection is None:
			self.connection = http.client.HTTPConnection(HOST, self.soak.http_port, timeout=60)
		self.connection.request(method, target, body=body, headers=headers or {})
		response = self.connection.getresponse()
		data = response.read()  # http.client raises IncompleteRead when the body ends short
		if response.getheader("Connection", "").lower() == "close":
			self.reset()
		return response.status, data

	def reset(self):
		if self.connection is not None:
			self.connection.close()
			self.connection = None


class FileManagerWorker(HttpWorker):
	"""Upload a file (4-256 KB) of its own, list the folder, download one of its files and check it."""

	def __init__(self, soak, mount, backend, period):
		super().__init__(soak, "fm-" + mount, "filemanager", backend, period)
		self.folder = "/%s/soak-fm" % mount
		self.auth = {"Authorization": "Bearer " + soak.token}

	def iteration(self):
		self.counter += 1
		name = "%s/f%02d.bin" % (self.folder, self.counter % 20)
		data = content(self.rng.random(), self.rng.randint(4096, 256 * 1024))

		def upload():
			status, body = self.request("POST", "/api/files/save?path=" + name, data, self.auth)
			if status == 200:
				self.soak.expect.acknowledged(name, digest(data))
				return "ok", ""
			self.soak.expect.unknown(name, digest(data))
			return "error", "save %s: %d %s" % (name, status, body[:200])
		self.timed(upload)

		def listing():
			status, body = self.request("GET", "/api/files/ls?path=" + self.folder + "/", None, self.auth)
			if status != 200 or json.loads(body).get("status") != "ok":
				return "error", "ls: %d %s" % (status, body[:200])
			return "ok", ""
		self.timed(listing)

		self.timed(lambda: self.download(*self.soak.expect.pick(self.rng, self.folder + "/")))

	def download(self, name, allowed):
		if name is None:
			return "ok", ""
		status, body = self.request("GET", "/api/files/cat?path=" + name, None, self.auth)
		if status == 404 and None in allowed:
			return "ok", ""
		if status != 200:
			if status == 404:
				return "corrupt", "%s: acknowledged but 404" % name
			return "error", "cat %s: %d" % (name, status)
		if digest(body) not in allowed:
			return "corrupt", "%s: %d bytes, not what was acknowledged" % (name, len(body))
		return "ok", ""


class FtpWorker(Worker):
	"""One FTP session (reopened after a failure): STOR a file (64-512 KB), RETR one and check it, NLST."""

	def __init__(self, soak, mount, backend, period):
		super().__init__(soak, "ftp-" + mount, "ftp", backend, period)
		self.folder = "/%s/soak-ftp" % mount
		self.ftp = None

	def session(self):
		if self.ftp is None:
			ftp = ftplib.FTP(timeout=60)
			ftp.connect(HOST, self.soak.ftp_port)
			ftp.login(self.soak.user, self.soak.password)
			ftp.set_pasv(True)
			self.ftp = ftp
		return self.ftp

	def reset(self):
		if self.ftp is not None:
			try:
				self.ftp.close()
			except Exception:
				pass
			self.ftp = None

	def iteration(self):
		self.counter += 1
		name = "%s/t%02d.bin" % (self.folder, self.counter % 20)
		data = content(self.rng.random(), self.rng.randint(64 * 1024, 512 * 1024))

		def stor():
			try:
				reply = self.session().storbinary("STOR " + name, io.BytesIO(data))
			except Exception:
				self.soak.expect.unknown(name, digest(data))
				raise
			if reply.startswith("226"):
				self.soak.expect.acknowledged(name, digest(data))
				return "ok", ""
			self.soak.expect.unknown(name, digest(data))
			return "error", "STOR %s: %s" % (name, reply)
		self.timed(stor)

		def retr():
			name, allowed = self.soak.expect.pick(self.rng, self.folder + "/")
			if name is None:
				return "ok", ""
			chunks = []
			try:
				reply = self.session().retrbinary("RETR " + name, chunks.append)
			except ftplib.error_perm as ex:
				if str(ex).startswith("550") and None in allowed:
					return "ok", ""
				if str(ex).startswith("550"):
					return "corrupt", "%s: acknowledged but %s" % (name, ex)
				raise
			body = b"".join(chunks)
			if digest(body) not in allowed:
				return "corrupt", "%s: %d bytes after %r, not what was acknowledged" % (name, len(body), reply)
			return "ok", ""
		self.timed(retr)

		if self.counter % 5 == 0:
			self.timed(lambda: ("ok", "") if self.session().nlst(self.folder) is not None else ("error", "nlst"))


class CacheWorker(HttpWorker):
	"""PUT an entry (1 KB-1 MB, some above memcached's chunk size) and GET one; a 404 is a miss."""

	def __init__(self, soak, index, backend, period):
		super().__init__(soak, "cache-%d" % index, "buildcache", backend, period)
		self.prefix = "w%d" % index
		self.auth = {"Authorization": "Basic " + base64.b64encode(
			("%s:%s" % (soak.user, soak.password)).encode()).decode()}

	def iteration(self):
		self.counter += 1
		# 60 keys per client of at most 700 KB: the working set (about 25 MB) fits in memcached, which would
		# otherwise evict chunks and fail reads of entries being served (documented, not what a soak measures).
		key = "%s%030x" % (self.prefix, self.counter % 60)
		size = self.rng.choice([1024, 16 * 1024, 100 * 1024, 700 * 1024])
		data = content(self.rng.random(), size)

		def put():
			status, body = self.request("PUT", "/cache/" + key, data, dict(self.auth))
			if status in (200, 201):
				self.soak.expect.acknowledged("cache:" + key, digest(data))
				return "ok", ""
			self.soak.expect.unknown("cache:" + key, digest(data))
			return "error", "PUT %s: %d" % (key, status)
		self.timed(put)

		def get():
			name, allowed = self.soak.expect.pick(self.rng, "cache:" + self.prefix)
			if name is None:
				return "ok", ""
			status, body = self.request("GET", "/cache/" + name[len("cache:"):], None, self.auth)
			if status == 404:
				return "miss", ""  # a cache may forget; memcached forgets everything when it restarts
			if status != 200:
				return "error", "GET %s: %d" % (name, status)
			if digest(body) not in allowed:
				return "corrupt", "%s: %d bytes, not what was acknowledged" % (name, len(body))
			return "ok", ""
		self.timed(get)


class StaticWorker(HttpWorker):
	"""GET a small and a 256 KB file of the site, checked."""

	def __init__(self, soak, period):
		super().__init__(soak, "static", "static", "local", period)

	def iteration(self):
		self.counter += 1
		name = self.rng.choice(list(self.soak.site))

		def get():
			status, body = self.request("GET", "/static/" + name)
			if status != 200:
				return "error", "GET /static/%s: %d" % (name, status)
			if body != self.soak.site[name]:
				return "corrupt", "/static/%s: %d bytes, not the file" % (name, len(body))
			return "ok", ""
		self.timed(get)


class Backend:
	"""A process started again on the same command line (same port) after a kill."""

	def __init__(self, name, command, ready, log_path):
		self.name = name
		self.command = command
		self.ready = ready
		self.log_path = log_path
		self.process = None

	def start(self, timeout=30):
		deadline = time.monotonic() + timeout
		while True:
			with open(self.log_path, "ab") as out:
				self.process = subprocess.Popen(self.command, stdout=out, stderr=subprocess.STDOUT,
					start_new_session=True)
			while time.monotonic() < deadline and self.process.poll() is None:
				if self.ready():
					return
				time.sleep(0.1)
			# The port may still be held by the killed server's connections: try again.
			self.kill()
			if time.monotonic() > deadline:
				raise RuntimeError("%s did not start; see %s" % (self.name, self.log_path))
			time.sleep(0.3)

	def kill(self):
		"""SIGKILL to the process and every descendant (sshd forks one per connection), as a crash would."""
		if self.process is None:
			return
		pids = descendants(self.process.pid) + [self.process.pid]
		for pid in pids:
			try:
				os.kill(pid, signal.SIGKILL)
			except ProcessLookupError:
				pass
		try:
			self.process.wait(10)
		except subprocess.TimeoutExpired:
			pass


def descendants(pid):
	children = {}
	for entry in os.listdir("/proc"):
		if entry.isdigit():
			try:
				with open("/proc/%s/stat" % entry) as f:
					fields = f.read().rsplit(")", 1)[1].split()
				children.setdefault(int(fields[1]), []).append(int(entry))
			except (OSError, IndexError):
				pass
	found, todo = [], [pid]
	while todo:
		for child in children.get(todo.pop(), []):
			found.append(child)
			todo.append(child)
	return found


def answers_banner(port, prefix):
	def ready():
		try:
			with socket.create_connection((HOST, port), timeout=1) as s:
				s.settimeout(3)
				return s.recv(16).startswith(prefix)
		except OSError:
			return False
	return ready


def accepts(port):
	def ready():
		try:
			with socket.create_connection((HOST, port), timeout=1):
				return True
		except OSError:
			return False
	return ready


class Sampler:
	"""Resource use of the Wharf process, read from /proc, jcmd and the actuator."""

	def __init__(self, pid, management_port, jcmd, group):
		self.pid = pid
		# Metrics are on the actuator's own port, not the HTTP port.
		self.management_port = management_port
		self.jcmd = jcmd
		self.group = group

	def sample(self):
		row = {}
		subprocess.run([self.jcmd, str(self.pid), "GC.run"], capture_output=True, timeout=120)
		info = subprocess.run([self.jcmd, str(self.pid), "GC.heap_info"], capture_output=True, text=True,
			timeout=120).stdout
		self.last_heap_info = info
		row["heap_used_kb"] = sum(int(m.group(2)) for m in re.finditer(r"total (\d+)K, used (\d+)K", info))
		metaspace = re.search(r"Metaspace\s+used (\d+)K", info)
		row["metaspace_kb"] = int(metaspace.group(1)) if metaspace else -1
		prometheus = self.prometheus()
		# Live data: the old generation right after the full collection GC.run caused (the young generation
		# fills again within milliseconds under load, so the whole heap's "used" is noisy).
		row["heap_after_gc_kb"] = self.metric(prometheus, r'^jvm_gc_live_data_size_bytes(?:\{[^}]*\})? (\S+)')
		row["direct_kb"] = self.metric(prometheus, r'^jvm_buffer_memory_used_bytes\{[^}]*id="direct"[^}]*\} (\S+)')
		with open("/proc/%d/status" % self.pid) as f:
			status = dict(line.split(":", 1) for line in f if ":" in line)
		row["rss_kb"] = int(status["VmRSS"].split()[0])
		row["rss_anon_kb"] = int(status["RssAnon"].split()[0])
		row["threads"] = int(status["Threads"])
		fds = os.listdir("/proc/%d/fd" % self.pid)
		row["fds"] = len(fds)
		states, self.last_close_wait = self.connections(fds)
		row["tcp_established"] = states.get("01", 0)
		row["tcp_close_wait"] = states.get("08", 0)
		row["tcp_other"] = sum(v for k, v in states.items() if k not in ("01", "08", "0A"))
		row["cgroup_kb"] = self.group.usage_kb() if self.group else -1
		row["load1"] = float(open("/proc/loadavg").read().split()[0])
		return row

	def connections(self, fds=None):
		"""The process's TCP sockets: a count per state (/proc/net/tcp's hex codes) and the CLOSE_WAIT ones as
		"local port -> peer port", so that a failed verdict names the protocol or backend."""
		if fds is None:
			fds = os.listdir("/proc/%d/fd" % self.pid)
		sockets = set()
		for fd in fds:
			try:
				target = os.readlink("/proc/%d/fd/%s" % (self.pid, fd))
			except OSError:
				continue
			if target.startswith("socket:["):
				sockets.add(target[8:-1])
		states = {}
		close_wait = []
		for table in ("/proc/net/tcp", "/proc/net/tcp6"):
			try:
				with open(table) as f:
					next(f)
					for line in f:
						fields = line.split()
						if fields[9] in sockets:
							states[fields[3]] = states.get(fields[3], 0) + 1
							if fields[3] == "08":
								close_wait.append("%s -> %s" % (endpoint(fields[1]), endpoint(fields[2])))
			except OSError:
				pass
		return states, close_wait

	def prometheus(self):
		try:
			connection = http.client.HTTPConnection(HOST, self.management_port, timeout=30)
			connection.request("GET", "/actuator/prometheus")
			text = connection.getresponse().read().decode()
			connection.close()
			return text
		except OSError:
			return ""

	@staticmethod
	def metric(text, pattern):
		m = re.search(pattern, text, re.M)
		return int(float(m.group(1)) / 1024) if m else -1


class MemoryGroup:
	"""A memory cgroup (v2, or v1 nested under this process's own) holding Wharf at the profile's budget."""

	def __init__(self, limit_bytes):
		self.limit = limit_bytes
		name = "wharf-soak-%d" % os.getpid()
		if os.path.exists("/sys/fs/cgroup/cgroup.controllers"):
			self.path = "/sys/fs/cgroup/" + name
			os.mkdir(self.path)
			self.write("memory.max", limit_bytes)
			self.write("memory.swap.max", 0, optional=True)
			self.files = ("memory.current", "memory.peak", "memory.events")
		else:
			own = [line.split(":")[2].strip() for line in open("/proc/self/cgroup")
				if "memory" in line.split(":")[1].split(",")][0]
			self.path = "/sys/fs/cgroup/memory" + own.rstrip("/") + "/" + name
			os.mkdir(self.path)
			self.write("memory.limit_in_bytes", limit_bytes)
			self.write("memory.memsw.limit_in_bytes", limit_bytes, optional=True)
			self.files = ("memory.usage_in_bytes", "memory.max_usage_in_bytes", "memory.oom_control")

	def write(self, name, value, optional=False):
		try:
			with open(os.path.join(self.path, name), "w") as f:
				f.write(str(value))
		except OSError:
			if not optional:
				raise

	def read(self, name):
		with open(os.path.join(self.path, name)) as f:
			return f.read()

	def join(self):
		"""Called in the child before exec: the process and everything it execs stay in the group."""
		with open(os.path.join(self.path, "cgroup.procs"), "w") as f:
			f.write(str(os.getpid()))

	def usage_kb(self):
		return int(self.read(self.files[0]).strip()) // 1024

	def peak_kb(self):
		try:
			return int(self.read(self.files[1]).strip()) // 1024
		except OSError:
			return -1

	def oom_kills(self):
		for line in self.read(self.files[2]).splitlines():
			if line.startswith("oom_kill "):
				return int(line.split()[1])
		return 0

	def remove(self):
		try:
			os.rmdir(self.path)
		except OSError:
			pass


def parse_size(text):
	units = {"K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}
	text = text.strip().upper().rstrip("B")
	return int(float(text[:-1]) * units[text[-1]]) if text[-1] in units else int(text)


class Soak:

	def __init__(self, args):
		self.args = args
		self.root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
		self.out = os.path.abspath(args.out)
		self.work = os.path.join(self.out, "work")
		self.stopping = threading.Event()
		self.stats = Stats()
		self.expect = Expectations()
		self.processes = []
		self.user = "soak"
		self.password = secrets.token_urlsafe(18)
		self.http_port = free_port()
		self.management_port = free_port()
		self.ftp_port = free_port()
		self.site = {"small.txt": b"a small static file\n" * 40, "medium.bin": content("medium", 256 * 1024)}

	def run(self):
		os.makedirs(self.work, exist_ok=True)
		for folder in ("data", "www", "remote", "state", "sshd"):
			os.makedirs(os.path.join(self.work, folder), exist_ok=True)
		for name, data in self.site.items():
			with open(os.path.join(self.work, "www", name), "wb") as f:
				f.write(data)
		self.memcached = self.start_memcached()
		self.sshd = self.start_sshd()
		self.wharf = self.start_wharf()
		self.token = self.mint_token()
		jcmd = shutil.which("jcmd", path=os.path.join(os.path.dirname(self.java), "") + os.pathsep + os.environ["PATH"])
		sampler = Sampler(self.wharf_pid, self.management_port, jcmd, self.group)
		workers = [
			FileManagerWorker(self, "data", "local", self.args.period),
			FileManagerWorker(self, "remote", "sshd", self.args.period),
			FtpWorker(self, "data", "local", 2 * self.args.period),
			FtpWorker(self, "remote", "sshd", 2 * self.args.period),
			CacheWorker(self, 1, "memcached", self.args.period),
			CacheWorker(self, 2, "memcached", self.args.period),
			StaticWorker(self, self.args.period / 2),
		]
		self.prepare_folders()
		log("load: %d client threads for %d s; killing %s at half time for %d s; sampling every %d s into %s"
			% (len(workers), self.args.duration, self.args.kill, self.args.outage, self.args.sample_every,
				os.path.join(self.out, "soak.csv")))
		for worker in workers:
			worker.start()
		start = time.monotonic()
		kill_at = start + self.args.duration / 2
		killed = restarted = False
		kill_time = restart_time = None
		rows = []
		next_sample = start + self.args.sample_every
		columns = ["t_s", "phase", "ops", "errors_expected", "errors_unexpected", "corrupt", "cache_misses",
			"p50_ms", "p99_ms", "heap_after_gc_kb", "heap_used_kb", "metaspace_kb", "direct_kb", "rss_kb", "rss_anon_kb", "threads", "fds",
			"tcp_established", "tcp_close_wait", "tcp_other", "cgroup_kb", "load1"]
		with open(os.path.join(self.out, "soak.csv"), "w") as csv:
			csv.write(",".join(columns) + "\n")
			while True:
				now = time.monotonic()
				if not killed and now >= kill_at:
					self.kill_backends()
					killed, kill_time = True, now - start
				if killed and not restarted and now >= kill_at + self.args.outage:
					self.restart_backends()
					restarted, restart_time = True, time.monotonic() - start
				if now >= next_sample:
					window = self.stats.take_window()
					try:
						row = sampler.sample()
					except (OSError, subprocess.SubprocessError, KeyError):
						if self.wharf_process.poll() is not None:
							log("!! Wharf exited with %d" % self.wharf_process.returncode)
							break
						raise
					latencies = sorted(window["latencies"])
					row.update({
						"t_s": round(now - start), "ops": window["ops"], "errors_expected": window["expected"],
						"errors_unexpected": window["unexpected"], "corrupt": window["corrupt"],
						"cache_misses": window["misses"],
						"p50_ms": round(1000 * latencies[len(latencies) // 2]) if latencies else -1,
						"p99_ms": round(1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))])
							if latencies else -1,
						"phase": "outage" if killed and (not restarted or now < kill_at + self.args.outage
							+ self.args.recovery) else ("after" if killed else "before"),
					})
					rows.append(row)
					csv.write(",".join(str(row[c]) for c in columns) + "\n")
					csv.flush()
					log("t=%4ds ops=%d err=%d/%d corrupt=%d heap=%dK rss=%dK threads=%d fds=%d tcp=%d load=%.1f" % (
						row["t_s"], row["ops"], row["errors_expected"], row["errors_unexpected"], row["corrupt"],
						row["heap_after_gc_kb"], row["rss_kb"], row["threads"], row["fds"], row["tcp_established"],
						row["load1"]))
					next_sample += self.args.sample_every
				if now - start >= self.args.duration:
					break
				if self.wharf_process.poll() is not None:
					log("!! Wharf exited with %d" % self.wharf_process.returncode)
					break
				time.sleep(0.2)
		self.stopping.set()
		for worker in workers:
			worker.join(120)
		# A connection the clients closed last is in CLOSE_WAIT until Wharf reads the end and closes its side, which
		# on a loaded machine can take a moment; one still there after 10 s is one Wharf does not close.
		deadline = time.monotonic() + 10
		time.sleep(2)
		while self.wharf_process.poll() is None and sampler.connections()[0].get("08", 0) and time.monotonic() < deadline:
			time.sleep(0.5)
		if self.wharf_process.poll() is not None:
			after = {k: -1 for k in ("heap_after_gc_kb", "rss_kb", "threads", "fds", "tcp_established", "tcp_close_wait")}
			sampler.last_heap_info = ""
		else:
			after = sampler.sample()
			self.close_wait_after = sampler.last_close_wait
		with open(os.path.join(self.out, "heap_info.txt"), "w") as f:
			f.write(sampler.last_heap_info)
		return self.verdict(rows, columns, kill_time, restart_time, after)

	def verdict(self, rows, columns, kill_time, restart_time, after):
		failures = []
		if self.wharf_process.poll() is not None:
			failures.append("Wharf died during the run (exit status %d)" % self.wharf_process.returncode)
		if len(rows) < 6:
			failures.append("too few samples (%d) to compare" % len(rows))
			rows = rows + [rows[-1]] * (6 - len(rows)) if rows else []
		warmup = max(1, len(rows) // 10)
		steady = rows[warmup:]
		third = max(1, len(steady) // 3)
		first, last = steady[:third], steady[-third:]
		lines = []
		for column, how, rel, absolute in (TOLERANCES if rows else []):
			values_first = [r[column] for r in first]
			values_last = [r[column] for r in last]
			if how == "median":
				a, b = statistics.median(values_first), statistics.median(values_last)
			else:
				a, b = max(values_first), max(values_last)
			limit = a * (1 + rel) + absolute
			ok = b <= limit
			lines.append("| %s | %s | %s | %s | %s | %s |" % (column, how, a, b, "%g%% + %d" % (rel * 100, absolute)
				if rel else "+ %d" % absolute, "flat" if ok else "**GROWS**"))
			if not ok:
				failures.append("%s: %s of the last third %s > %s (first third %s)" % (column, how, b, limit, a))
		totals = self.stats.total
		ops = sum(t["ops"] for t in totals.values())
		unexpected = sum(t["unexpected"] for t in totals.values())
		corrupt = sum(t["corrupt"] for t in totals.values())
		allowed = max(UNEXPECTED_ERRORS_ALLOWED_MIN, int(ops * UNEXPECTED_ERRORS_ALLOWED_PER_MILLE / 1000))
		if corrupt:
			failures.append("%d downloads were not what was acknowledged (lost or corrupt)" % corrupt)
		if unexpected > allowed:
			failures.append("%d unexpected errors (allowed: %d)" % (unexpected, allowed))
		memory_note = "no memory limit"
		if self.group is not None:
			oom = self.group.oom_kills()
			memory_note = "memory limit %d MB: peak %d KB charged to the cgroup, %d OOM kills" % (
				self.group.limit // 1024 ** 2, self.group.peak_kb(), oom)
			if oom:
				failures.append("%d OOM kills in the memory limit" % oom)
		if after["tcp_close_wait"] > 0:
			failures.append("%d connections in CLOSE_WAIT after the load stopped (Wharf's port -> peer's port: %s; %s)"
				% (after["tcp_close_wait"], ", ".join(self.close_wait_after), self.port_names()))
		with open(os.path.join(self.out, "summary.md"), "w") as f:
			f.write("Soak: %d s, sample every %d s, killed %s at %s s, restarted at %s s (outage %d s, recovery allowed %d s)\n\n"
				% (self.args.duration, self.args.sample_every, self.args.kill, kill_time and round(kill_time),
					restart_time and round(restart_time), self.args.outage, self.args.recovery))
			f.write("| protocol | operations | ok | cache misses | errors in the outage | unexpected errors | corrupt |\n")
			f.write("|---|---|---|---|---|---|---|\n")
			for protocol, t in sorted(totals.items()):
				f.write("| %s | %d | %d | %d | %d | %d | %d |\n" % (protocol, t["ops"], t["ok"], t["miss"], t["expected"],
					t["unexpected"], t["corrupt"]))
			f.write("\nFlatness: first third vs last third of the samples after a warm-up of %d sample(s) (%d samples each)\n\n"
				% (warmup, third))
			f.write("| column | compared | first third | last third | tolerance | verdict |\n|---|---|---|---|---|---|\n")
			f.write("\n".join(lines) + "\n")
			f.write("\nMemory: %s\n" % memory_note)
			f.write("\nAfter the load stopped: %s\n" % ", ".join("%s=%s" % (k, after[k]) for k in
				("heap_after_gc_kb", "rss_kb", "threads", "fds", "tcp_established", "tcp_close_wait")))
			f.write("\nUnexpected errors (first 20):\n\n")
			for when, protocol, backend, detail in self.stats.errors[:20]:
				f.write("- %s %s (%s): %s\n" % (time.strftime("%H:%M:%S", time.gmtime(when)), protocol, backend, detail))
			f.write("\nVerdict: %s\n" % ("PASS" if not failures else "FAIL: " + "; ".join(failures)))
		print(open(os.path.join(self.out, "summary.md")).read())
		return 0 if not failures else 1

	# Backends and Wharf

	def port_names(self):
		return "ports: http %d, management %d, ftp %d, memcached %d, sshd %d; other ports are FTP data or clients' own" % (
			self.http_port, self.management_port, self.ftp_port, self.memcached.port, self.sshd.port)

	def start_memcached(self):
		port = free_port()
		command = [shutil.which("memcached"), "-l", HOST, "-p", str(port), "-U", "0", "-m", "256", "-t", "2"]
		if os.geteuid() == 0:
			command += ["-u", "root"]
		backend = Backend("memcached", command, accepts(port), os.path.join(self.out, "memcached.log"))
		backend.port = port
		backend.start()
		self.processes.append(backend)
		return backend

	def start_sshd(self):
		port = free_port()
		folder = os.path.join(self.work, "sshd")
		for key, comment in (("host_key", "soak-host"), ("client_key", "soak-client")):
			path = os.path.join(folder, key)
			if not os.path.exists(path):
				subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", path], check=True)
		shutil.copy(os.path.join(folder, "client_key.pub"), os.path.join(folder, "authorized_keys"))
		user = os.environ.get("USER") or subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
		config = os.path.join(folder, "sshd_config")
		with open(config, "w") as f:
			f.write("\n".join(["ListenAddress %s:%d" % (HOST, port), "HostKey " + os.path.join(folder, "host_key"),
				"PidFile none", "UsePAM no", "StrictModes no", "UseDNS no", "PermitRootLogin prohibit-password",
				"PubkeyAuthentication yes", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
				"AuthorizedKeysFile " + os.path.join(folder, "authorized_keys"), "AllowUsers " + user,
				"AllowTcpForwarding no", "X11Forwarding no", "PermitTTY no", "Subsystem sftp internal-sftp",
				"ForceCommand internal-sftp", "MaxStartups 200", "MaxSessions 100", "LogLevel INFO", ""]))
		if os.geteuid() == 0:
			os.makedirs("/run/sshd", exist_ok=True)
		backend = Backend("sshd", [shutil.which("sshd") or "/usr/sbin/sshd", "-D", "-f", config, "-E",
			os.path.join(self.out, "sshd.log")], answers_banner(port, b"SSH-2.0"), os.path.join(self.out, "sshd.out"))
		backend.port = port
		backend.user = user
		with open(os.path.join(folder, "host_key.pub")) as f:
			backend.known_hosts = "[%s]:%d %s" % (HOST, port, " ".join(f.read().split()[:2]))
		backend.key = os.path.join(folder, "client_key")
		backend.start()
		self.processes.append(backend)
		return backend

	def start_wharf(self):
		java_home = os.environ.get("JAVA_HOME")
		self.java = os.path.join(java_home, "bin", "java") if java_home else shutil.which("java")
		jar = os.environ.get("WHARF_JAR") or os.path.join(self.root, "platform-app", "target", "wharf.jar")
		hashed = subprocess.run([self.java, "-jar", jar, "hash-password"], input=self.password + "\n",
			capture_output=True, text=True, timeout=300).stdout.strip().splitlines()[-1]
		config = os.path.join(self.work, "soak.yaml")
		w = self.work
		with open(config, "w") as f:
			f.write("""server:
  port: %(http)d
  shutdown: immediate
management:
  server:
    port: %(management)d
wharf:
  state-dir: %(w)s/state
  storage:
    mounts:
      data:   { type: local, root: "%(w)s/data" }
      www:    { type: local, root: "%(w)s/www" }
      cache:  { type: memcached, servers: [ "%(host)s:%(mc)d" ] }
      remote:
        type: sftp
        host: %(host)s
        port: %(ssh)d
        username: %(ssh_user)s
        private-key: "file:%(key)s"
        known-hosts: "%(known)s"
        root: "%(w)s/remote"
  security:
    users:
      - name: %(user)s
        password: "%(hash)s"
        roles: [ admin, user, cache-reader, cache-writer ]
  filemanager: { mounts: [ data, remote ] }
  ftp: { port: %(ftp)d, passive-ports: "0", mounts: [ data, remote ] }
  buildcache: { mount: cache }
  static: { sites: [ { prefix: /static, mount: www } ] }
""" % {"http": self.http_port, "management": self.management_port, "w": w, "host": HOST, "mc": self.memcached.port,
				"ssh": self.sshd.port, "ssh_user": self.sshd.user, "key": self.sshd.key, "known": self.sshd.known_hosts,
				"user": self.user, "hash": hashed, "ftp": self.ftp_port})
		command = [os.path.join(self.root, "platform-app", "bin", "wharf"), "--profile", self.args.profile, "--",
			"--spring.config.additional-location=file:" + config]
		log("starting Wharf: " + " ".join(command))
		out = open(os.path.join(self.out, "wharf.log"), "ab")
		self.group = None
		if self.args.memory_limit != "none":
			limit = self.args.memory_limit
			if limit == "profile":
				with open(os.path.join(self.root, "platform-app", "src", "main", "jvm", self.args.profile + ".options")) as f:
					limit = re.search(r"(\d+) MB", f.readline()).group(1) + "M"
			try:
				self.group = MemoryGroup(parse_size(limit))
				log("memory limit %s (cgroup %s)" % (limit, self.group.path))
			except (OSError, IndexError) as ex:
				log("!! no memory cgroup (needs root and cgroup v1 or v2): running without a limit (%s)" % ex)
		process = subprocess.Popen(command, cwd=self.work, stdout=out, stderr=subprocess.STDOUT,
			start_new_session=True, env=dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8"),
			preexec_fn=self.group.join if self.group else None)
		self.wharf_process = process
		self.wharf_pid = process.pid  # bin/wharf execs java
		deadline = time.monotonic() + 300
		while time.monotonic() < deadline:
			if process.poll() is not None:
				raise RuntimeError("Wharf exited with %d; see %s/wharf.log" % (process.returncode, self.out))
			try:
				c = http.client.HTTPConnection(HOST, self.http_port, timeout=5)
				c.request("GET", "/actuator/health/readiness")
				if c.getresponse().status == 200 and accepts(self.ftp_port)():
					log("Wharf is up (pid %d)" % process.pid)
					return process
			except OSError:
				pass
			time.sleep(0.5)
		raise RuntimeError("Wharf did not start in 300 s; see %s/wharf.log" % self.out)

	def mint_token(self):
		c = http.client.HTTPConnection(HOST, self.http_port, timeout=60)
		basic = base64.b64encode(("%s:%s" % (self.user, self.password)).encode()).decode()
		c.request("POST", "/api/tokens?name=soak", headers={"Authorization": "Basic " + basic})
		response = c.getresponse()
		body = json.loads(response.read())
		if response.status not in (200, 201):
			raise RuntimeError("token: %d %s" % (response.status, body))
		return body["result"]["token"]

	def prepare_folders(self):
		auth = {"Authorization": "Bearer " + self.token}
		for mount in ("data", "remote"):
			for folder in ("soak-fm", "soak-ftp"):
				c = http.client.HTTPConnection(HOST, self.http_port, timeout=60)
				c.request("POST", "/api/files/mkdir?path=/%s/%s" % (mount, folder), headers=auth)
				status = c.getresponse().status
				if status not in (200, 409):
					raise RuntimeError("mkdir /%s/%s: %d" % (mount, folder, status))

	def victims(self):
		return {"sshd": [self.sshd], "memcached": [self.memcached], "both": [self.sshd, self.memcached],
			"none": []}[self.args.kill]

	def kill_backends(self):
		victims = self.victims()
		with self.stats.lock:
			self.stats.outage = (tuple(v.name for v in victims), time.monotonic())
			self.stats.last_outage_backends = self.stats.outage[0]
		for victim in victims:
			log("killing %s (pid %d)" % (victim.name, victim.process.pid))
			victim.kill()

	def restart_backends(self):
		for victim in self.victims():
			log("restarting %s on port %d" % (victim.name, victim.port))
			victim.start()
		with self.stats.lock:
			self.stats.outage = None
			self.stats.outage_until = time.monotonic() + self.args.recovery

	def close(self):
		self.stopping.set()
		process = getattr(self, "wharf_process", None)
		if process is not None and process.poll() is None:
			process.terminate()
			try:
				process.wait(30)
			except subprocess.TimeoutExpired:
				process.kill()
		for backend in self.processes:
			backend.kill()
		if getattr(self, "group", None) is not None:
			self.group.remove()


def main():
	parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
	parser.add_argument("--duration", type=int, default=1800, help="seconds of load (default 1800)")
	parser.add_argument("--sample-every", type=int, default=30, help="seconds between samples (default 30)")
	parser.add_argument("--kill", choices=["sshd", "memcached", "both", "none"], default="both")
	parser.add_argument("--outage", type=int, default=20, help="seconds the killed backends stay down")
	parser.add_argument("--recovery", type=int, default=60,
		help="seconds after the restart in which errors on the killed backends still count as expected")
	parser.add_argument("--period", type=float, default=0.5, help="seconds between iterations of a client")
	parser.add_argument("--profile", default="p128")
	parser.add_argument("--out", default="target/soak")
	parser.add_argument("--memory-limit", default="none",
		help="run Wharf in a memory cgroup: 'profile' (the profile's budget), a size such as 128M, or none")
	args = parser.parse_args()
	if args.duration < 6 * args.sample_every:
		parser.error("the run needs at least six samples: duration >= 6 x sample-every")
	soak = Soak(args)
	signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
	try:
		code = soak.run()
	finally:
		soak.close()
	sys.exit(code)


if __name__ == "__main__":
	main()
