"""pyftpdlib as the peer of the pyftpdlib (ftpbench) table, configured as its published benchmark was:
FTPServer.max_cons = 0 and the open-file limit raised. Started by load-tests/run.sh.

usage: python pyftpdlib_server.py PORT ROOT USER PASSWORD PASSIVE_FIRST PASSIVE_LAST
"""
import resource
import sys

from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer


def main():
    port, root, user, password, first, last = sys.argv[1:7]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    authorizer = DummyAuthorizer()
    authorizer.add_user(user, password, root, perm="elradfmwMT")
    handler = FTPHandler
    handler.authorizer = authorizer
    handler.passive_ports = range(int(first), int(last) + 1)
    server = FTPServer(("127.0.0.1", int(port)), handler)
    server.max_cons = 0
    server.max_cons_per_ip = 0
    server.serve_forever()


if __name__ == "__main__":
    main()
