"""The one single flight: the first caller for a key makes the call in its own task;
those who come while it is in flight follow it, each with a copy of its answer."""

from __future__ import annotations

import asyncio

from qlgate.cache.flight import SingleFlight


def counting(delay: float = 0.1):
    """A fetch that counts its calls and answers with its call's number."""
    calls: list[int] = []

    async def fetch() -> list[int]:
        calls.append(len(calls) + 1)
        number = len(calls)
        await asyncio.sleep(delay)
        return [number]

    return fetch, calls


async def test_callers_in_flight_share_one_call_each_with_a_copy():
    flight: SingleFlight[list[int]] = SingleFlight(list)
    fetch, calls = counting()
    outcomes = await asyncio.gather(*(flight.run("k", fetch) for _ in range(5)))
    assert calls == [1]
    assert [shared for _, shared in outcomes] == [False, True, True, True, True]
    answers = [answer for answer, _ in outcomes]
    assert all(answer == [1] for answer in answers)
    assert len({id(answer) for answer in answers}) == 5  # each its own copy


async def test_the_leader_makes_the_call_in_its_own_task():
    flight: SingleFlight[list[int]] = SingleFlight(list)
    seen: list[asyncio.Task | None] = []

    async def fetch() -> list[int]:
        seen.append(asyncio.current_task())
        await asyncio.sleep(0.01)
        return [1]

    leader = asyncio.ensure_future(flight.run("k", fetch))
    await asyncio.sleep(0)
    follower = asyncio.ensure_future(flight.run("k", fetch))
    await asyncio.gather(leader, follower)
    assert seen == [leader]  # no task of the flight's own


async def test_a_follower_that_gives_up_leaves_the_call_to_the_others():
    flight: SingleFlight[list[int]] = SingleFlight(list)
    fetch, calls = counting()
    leader = asyncio.ensure_future(flight.run("k", fetch))
    await asyncio.sleep(0)
    quitter = asyncio.ensure_future(flight.run("k", fetch))
    stayer = asyncio.ensure_future(flight.run("k", fetch))
    await asyncio.sleep(0.02)
    quitter.cancel()
    assert (await leader) == ([1], False) and (await stayer) == ([1], True)
    assert quitter.cancelled() and calls == [1]


async def test_when_the_leader_gives_up_its_call_ends_and_a_follower_makes_it_again():
    flight: SingleFlight[list[int]] = SingleFlight(list)
    fetch, calls = counting()
    leader = asyncio.ensure_future(flight.run("k", fetch))
    await asyncio.sleep(0)
    followers = [asyncio.ensure_future(flight.run("k", fetch)) for _ in range(3)]
    await asyncio.sleep(0.02)
    leader.cancel()  # its caller left: its call is cancelled with it, not left running for nobody
    outcomes = await asyncio.gather(*followers)
    assert leader.cancelled()
    assert calls == [1, 2]  # the first follower made a call of its own, the others followed it
    assert [answer for answer, _ in outcomes] == [[2], [2], [2]]
    assert [shared for _, shared in outcomes] == [False, True, True]
    assert "k" not in flight


async def test_every_follower_gets_its_own_copy_of_the_error():
    flight: SingleFlight[list[int]] = SingleFlight(list)

    async def fetch() -> list[int]:
        await asyncio.sleep(0.02)
        raise ValueError("upstream broke")

    outcomes = await asyncio.gather(*(flight.run("k", fetch) for _ in range(3)), return_exceptions=True)
    assert all(isinstance(o, ValueError) and str(o) == "upstream broke" for o in outcomes)
    assert len({id(o) for o in outcomes}) == 3
