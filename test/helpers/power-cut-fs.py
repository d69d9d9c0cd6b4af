#!/usr/bin/python3
"""A FUSE file system that forgets what was not synced: a power cut, for the durability test.

Usage: power-cut-fs.py BACKING MOUNTPOINT

Everything under MOUNTPOINT is BACKING, with one difference from a real disk's file system: the contents written to a
file stay in this process's memory until the file is fsync'ed (fsync or fdatasync); only then are they written to
BACKING. Kill this process (SIGKILL) and unmount: every write that was never synced is gone, as after a power cut,
while everything synced is in BACKING. Names (create, unlink, rename, mkdir) reach BACKING at once — a simplification
on the kind side (a real file system may lose those too); the test is about the database's commits, which SQLite only
makes in files that already exist.

Written with pyfuse3 (Debian's python3-pyfuse3), run by Debian's /usr/bin/python3.
"""
import errno
import os
import stat as stat_m
import sys

import pyfuse3
import trio


class Contents:
    """A file's bytes while they differ from BACKING (written, not yet synced)."""

    def __init__(self, data: bytes):
        self.data = bytearray(data)
        self.dirty = False


class PowerCutFs(pyfuse3.Operations):
    enable_writeback_cache = False

    def __init__(self, root: str):
        super().__init__()
        self.root = root
        self.paths = {pyfuse3.ROOT_INODE: root}
        self.lookups = {}
        self.contents = {}  # inode -> Contents
        self.fds = {}  # fh -> inode
        self.next_fh = 1

    # -- names -------------------------------------------------------------------------------------------------
    def path(self, inode):
        try:
            return self.paths[inode]
        except KeyError:
            raise pyfuse3.FUSEError(errno.ENOENT)

    def remember(self, path):
        st = os.lstat(path)
        inode = st.st_ino if path != self.root else pyfuse3.ROOT_INODE
        self.paths[inode] = path
        self.lookups[inode] = self.lookups.get(inode, 0) + 1
        return inode

    def attributes(self, inode, path):
        try:
            st = os.lstat(path)
        except OSError as e:
            raise pyfuse3.FUSEError(e.errno)
        entry = pyfuse3.EntryAttributes()
        for name in ('st_mode', 'st_nlink', 'st_uid', 'st_gid', 'st_rdev', 'st_atime_ns', 'st_mtime_ns', 'st_ctime_ns'):
            setattr(entry, name, getattr(st, name))
        entry.st_ino = inode
        entry.st_size = len(self.contents[inode].data) if inode in self.contents else st.st_size
        entry.st_blksize = 4096
        entry.st_blocks = (entry.st_size + 511) // 512
        entry.generation = 0
        entry.entry_timeout = 0
        entry.attr_timeout = 0
        return entry

    async def lookup(self, parent_inode, name, ctx=None):
        name = os.fsdecode(name)
        path = os.path.join(self.path(parent_inode), name)
        try:
            os.lstat(path)
        except OSError as e:
            raise pyfuse3.FUSEError(e.errno)
        inode = self.remember(path)
        return self.attributes(inode, path)

    async def forget(self, inode_list):
        for inode, count in inode_list:
            left = self.lookups.get(inode, 0) - count
            if left > 0:
                self.lookups[inode] = left
            else:
                self.lookups.pop(inode, None)
                if inode != pyfuse3.ROOT_INODE and inode not in self.contents:
                    self.paths.pop(inode, None)

    async def getattr(self, inode, ctx=None):
        return self.attributes(inode, self.path(inode))

    async def setattr(self, inode, attr, fields, fh, ctx):
        path = self.path(inode)
        try:
            if fields.update_size:
                contents = self.load(inode)
                size = attr.st_size
                if size < len(contents.data):
                    del contents.data[size:]
                else:
                    contents.data.extend(b'\0' * (size - len(contents.data)))
                contents.dirty = True
            if fields.update_mode:
                os.chmod(path, stat_m.S_IMODE(attr.st_mode))
            if fields.update_atime or fields.update_mtime:
                st = os.lstat(path)
                atime = attr.st_atime_ns if fields.update_atime else st.st_atime_ns
                mtime = attr.st_mtime_ns if fields.update_mtime else st.st_mtime_ns
                os.utime(path, None, ns=(atime, mtime))
        except OSError as e:
            raise pyfuse3.FUSEError(e.errno)
        return self.attributes(inode, path)

    async def readlink(self, inode, ctx):
        return os.fsencode(os.readlink(self.path(inode)))

    async def opendir(self, inode, ctx):
        return inode

    async def readdir(self, fh, start_id, token):
        path = self.path(fh)
        entries = sorted(os.listdir(path))
        for index, name in enumerate(entries):
            if index < start_id:
                continue
            child = os.path.join(path, name)
            try:
                inode = self.remember(child)
            except OSError:
                continue
            if not pyfuse3.readdir_reply(token, os.fsencode(name), self.attributes(inode, child), index + 1):
                self.lookups[inode] -= 1
                break

    async def releasedir(self, fh):
        pass

    async def mkdir(self, parent_inode, name, mode, ctx):
        path = os.path.join(self.path(parent_inode), os.fsdecode(name))
        try:
            os.mkdir(path, mode)
        except OSError as e:
            raise pyfuse3.FUSEError(e.errno)
        inode = self.remember(path)
        return self.attributes(inode, path)

    async def rmdir(self, parent_inode, name, ctx):
        path = os.path.join(self.path(parent_inode), os.fsdecode(name))
        try:
            os.rmdir(path)
        except OSError as e:
            raise pyfuse3.FUSEError(e.errno)

    async def unlink(self, parent_inode, name, ctx):
        path = os.path.join(self.path(parent_inode), os.fsdecode(name))
        try:
            inode = os.lstat(path).st_ino
            os.unlink(path)
        except OSError as e:
            raise pyfuse3.FUSEError(e.errno)
        self.contents.pop(inode, None)

    async def symlink(self, parent_inode, name, target, ctx):
        path = os.path.join(self.path(parent_inode), os.fsdecode(name))
        try:
            os.symlink(os.fsdecode(target), path)
        except OSError as e:
            raise pyfuse3.FUSEError(e.errno)
        inode = self.remember(path)
        return self.attributes(inode, path)

    async def link(self, inode, new_parent_inode, new_name, ctx):
        path = os.path.join(self.path(new_parent_inode), os.fsdecode(new_name))
        self.sync(inode)  # a link to unsynced contents: both names see what is on disk
        try:
            os.link(self.path(inode), path)
        except OSError as e:
            raise pyfuse3.FUSEError(e.errno)
        return self.attributes(inode, path)

    async def rename(self, parent_inode_old, name_old, parent_inode_new, name_new, flags, ctx):
        old = os.path.join(self.path(parent_inode_old), os.fsdecode(name_old))
        new = os.path.join(self.path(parent_inode_new), os.fsdecode(name_new))
        try:
            replaced = os.lstat(new).st_ino
        except OSError:
            replaced = None
        try:
            inode = os.lstat(old).st_ino
            os.rename(old, new)
        except OSError as e:
            raise pyfuse3.FUSEError(e.errno)
        if replaced is not None and replaced != inode:
            self.contents.pop(replaced, None)
        # Every path under a renamed folder changes too.
        for known, path in list(self.paths.items()):
            if path == old or path.startswith(old + os.sep):
                self.paths[known] = new + path[len(old):]

    async def statfs(self, ctx):
        st = os.statvfs(self.root)
        stats = pyfuse3.StatvfsData()
        for name in ('f_bsize', 'f_frsize', 'f_blocks', 'f_bfree', 'f_bavail', 'f_files', 'f_ffree', 'f_favail', 'f_namemax'):
            setattr(stats, name, getattr(st, name))
        return stats

    async def access(self, inode, mode, ctx):
        return True

    # -- contents ----------------------------------------------------------------------------------------------
    def load(self, inode):
        contents = self.contents.get(inode)
        if contents is None:
            with open(self.path(inode), 'rb') as f:
                contents = Contents(f.read())
            self.contents[inode] = contents
        return contents

    def sync(self, inode):
        """Writes a file's contents to BACKING and syncs it there: from now on a power cut keeps them."""
        contents = self.contents.get(inode)
        if contents is None or not contents.dirty:
            return
        path = self.path(inode)
        fd = os.open(path, os.O_WRONLY)
        try:
            os.ftruncate(fd, len(contents.data))
            os.pwrite(fd, bytes(contents.data), 0)
            os.fsync(fd)
        finally:
            os.close(fd)
        contents.dirty = False

    def new_handle(self, inode):
        fh = self.next_fh
        self.next_fh += 1
        self.fds[fh] = inode
        return fh

    async def open(self, inode, flags, ctx):
        self.path(inode)
        if flags & os.O_TRUNC:
            contents = self.load(inode)
            contents.data.clear()
            contents.dirty = True
        info = pyfuse3.FileInfo(fh=self.new_handle(inode))
        info.keep_cache = False
        return info

    async def create(self, parent_inode, name, mode, flags, ctx):
        path = os.path.join(self.path(parent_inode), os.fsdecode(name))
        try:
            fd = os.open(path, os.O_CREAT | os.O_WRONLY | (flags & os.O_EXCL), mode)
            os.close(fd)
        except OSError as e:
            raise pyfuse3.FUSEError(e.errno)
        inode = self.remember(path)
        self.contents[inode] = Contents(b'')
        info = pyfuse3.FileInfo(fh=self.new_handle(inode))
        return info, self.attributes(inode, path)

    async def read(self, fh, off, size):
        inode = self.fds[fh]
        contents = self.contents.get(inode)
        if contents is not None:
            return bytes(contents.data[off:off + size])
        with open(self.path(inode), 'rb') as f:
            f.seek(off)
            return f.read(size)

    async def write(self, fh, off, buf):
        contents = self.load(self.fds[fh])
        end = off + len(buf)
        if end > len(contents.data):
            contents.data.extend(b'\0' * (end - len(contents.data)))
        contents.data[off:end] = buf
        contents.dirty = True
        return len(buf)

    async def fsync(self, fh, datasync):
        self.sync(self.fds[fh])

    async def fsyncdir(self, fh, datasync):
        pass

    async def flush(self, fh):
        pass  # closing is not syncing

    async def release(self, fh):
        self.fds.pop(fh, None)


def main():
    backing, mountpoint = sys.argv[1], sys.argv[2]
    fs = PowerCutFs(os.path.abspath(backing))
    options = set(pyfuse3.default_options)
    options.add('fsname=power-cut-fs')
    options.discard('default_permissions')
    pyfuse3.init(fs, mountpoint, options)
    print('mounted', flush=True)
    try:
        trio.run(pyfuse3.main)
    finally:
        pyfuse3.close(unmount=True)


if __name__ == '__main__':
    main()
