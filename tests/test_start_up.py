"""What keeps a first load fast leaves what it makes as it was: the collector's work after a load."""
from __future__ import annotations

import gc

from interpreter.compile.loading import load_program


def test_a_load_leaves_what_it_made_in_the_collectors_oldest_generation() -> None:
    """The two passes over the young generations after a load would walk the whole program only to move it there."""
    load_program.cache_clear()
    program = load_program("maechtige_monster")
    assert gc.isenabled()
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert {id(program), id(program.blocks), id(program.zones[0])} <= oldest
    assert gc.get_freeze_count() == 0


def test_a_load_in_a_frozen_heap_leaves_it_frozen() -> None:
    """A caller that froze the heap (simulate.frozen_heap) unfreezes it, with the load's objects, when it is done."""
    load_program.cache_clear()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        load_program("maechtige_monster")
        assert gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()
