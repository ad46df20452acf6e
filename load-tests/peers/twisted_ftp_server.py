"""Twisted's FTP server (twisted.protocols.ftp) as a peer of the pyftpdlib (ftpbench) table: the same server
`twistd ftp` runs, with one user whose home is the given folder (twistd's tap gives authenticated users
/home/USER) and listening on 127.0.0.1 only (twistd's tap listens on every interface). Started by
load-tests/run.sh.

usage: python twisted_ftp_server.py PORT ROOT USER PASSWORD PASSIVE_FIRST PASSIVE_LAST
"""
import resource
import sys

from twisted.cred.checkers import InMemoryUsernamePasswordDatabaseDontUse
from twisted.cred.portal import IRealm, Portal
from twisted.internet import reactor
from twisted.protocols.ftp import FTPFactory, FTPShell, IFTPShell
from twisted.python.filepath import FilePath
from zope.interface import implementer


@implementer(IRealm)
class HomeRealm:
    """Every authenticated user gets a read-write shell on the one root folder."""

    def __init__(self, root):
        self.root = FilePath(root)

    def requestAvatar(self, avatar_id, mind, *interfaces):
        for interface in interfaces:
            if interface is IFTPShell:
                return IFTPShell, FTPShell(self.root), lambda: None
        raise NotImplementedError("Only IFTPShell is served")


def main():
    port, root, user, password, first, last = sys.argv[1:7]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    checker = InMemoryUsernamePasswordDatabaseDontUse()
    checker.addUser(user, password)
    factory = FTPFactory(Portal(HomeRealm(root), [checker]))
    factory.allowAnonymous = False
    factory.passivePortRange = range(int(first), int(last) + 1)
    # Like pyftpdlib's max_cons = 0 in the published benchmark: no connection limit.
    factory.connectionLimit = None
    reactor.listenTCP(int(port), factory, backlog=1024, interface="127.0.0.1")
    reactor.run()


if __name__ == "__main__":
    main()
