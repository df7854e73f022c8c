"""Request ids: UUID version 4 in form, unique, and different in each forked worker
(``random`` is reseeded in a forked child; were it not, every worker of ``serve
--workers N`` would hand out the same ids)."""

import os
import uuid

from qlgate.engine.engine import new_request_id


def test_request_ids_are_version_4_uuids_and_unique():
    ids = [new_request_id() for _ in range(10_000)]
    assert len(set(ids)) == len(ids)
    for text in ids[:100]:
        parsed = uuid.UUID(text)
        assert (str(parsed), parsed.version, parsed.variant) == (text, 4, uuid.RFC_4122)


def test_a_forked_worker_draws_other_ids_than_its_parent():
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its next ids, then out without cleanup
        os.write(write, ",".join(new_request_id() for _ in range(3)).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    with os.fdopen(read) as pipe:
        child = pipe.read().split(",")
    parent = [new_request_id() for _ in range(3)]
    assert len(child) == 3 and not set(child) & set(parent)
