"""Page-cache residency and eviction, on a real file."""
from __future__ import annotations

import os

from lrev import pagecache


def test_a_read_file_is_resident_and_eviction_drops_it(tmp_path):
    path = tmp_path / "data.bin"
    with open(path, "wb") as f:
        f.write(os.urandom(4 << 20))
        f.flush()
        os.fsync(f.fileno())  # dirty pages cannot be dropped
    path.read_bytes()
    assert pagecache.resident_bytes([tmp_path]) >= 4 << 20
    pagecache.evict([tmp_path])
    assert pagecache.resident_bytes([path]) < 1 << 20
    assert pagecache.files([tmp_path]) == [path]
