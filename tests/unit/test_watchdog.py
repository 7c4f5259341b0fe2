"""The watchdog interrupts only blocks that overrun, with one thread for all of them."""

from __future__ import annotations

import threading
import time

from search_core.engine.watchdog import Watchdog


class Connection:
    def __init__(self) -> None:
        self.interrupted = 0

    def interrupt(self) -> None:
        self.interrupted += 1


def test_a_nearer_deadline_wakes_a_watchdog_sleeping_towards_a_later_one() -> None:
    watchdog, patient, hasty = Watchdog(), Connection(), Connection()
    with watchdog.deadline(patient, 30):
        time.sleep(0.05)  # the watchdog is now asleep until 30 s from now
        with watchdog.deadline(hasty, 0.05):
            time.sleep(0.5)
    assert (hasty.interrupted, patient.interrupted) == (1, 0)


def test_many_deadlines_share_one_thread() -> None:
    watchdog, connection = Watchdog(), Connection()
    before = threading.active_count()
    for _ in range(200):
        with watchdog.deadline(connection, 5):
            pass
    assert threading.active_count() <= before + 1
    assert connection.interrupted == 0


def test_a_block_that_ended_is_never_interrupted_by_its_old_deadline() -> None:
    watchdog, connection = Watchdog(), Connection()
    with watchdog.deadline(connection, 0.05):
        pass
    time.sleep(0.2)
    with watchdog.deadline(connection, 5):
        time.sleep(0.05)
    assert connection.interrupted == 0


def test_a_block_is_interrupted_at_the_instant_it_was_given() -> None:
    watchdog, connection = Watchdog(), Connection()
    with watchdog.until(connection, time.monotonic() + 0.05):
        time.sleep(0.3)
    assert connection.interrupted == 1
