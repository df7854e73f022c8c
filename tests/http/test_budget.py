"""A request's budget of answer bytes (``qlgate/http/budget.py``), charged by the
connection as the bytes arrive: the calls of one request share it, and the call
that goes over it fails while it reads, with a typed error."""

from __future__ import annotations

import gzip

import pytest

from qlgate.errors import RequestBytesExceeded
from qlgate.http.budget import AnswerBudget
from qlgate.http.client import HttpClient, HttpRequest


@pytest.fixture
async def client():
    c = HttpClient(max_response_bytes=10_000_000)
    yield c
    await c.close()


async def test_the_calls_of_one_request_share_its_budget(upstream, client):
    upstream.reply("GET", "/a", body=b"x" * 40_000)
    budget = AnswerBudget(100_000)
    for _ in range(2):
        response = await client.send(HttpRequest("GET", upstream.base + "/a", {}, budget=budget))
        assert len(response.body) == 40_000
    assert budget.spent == 80_000
    with pytest.raises(RequestBytesExceeded) as raised:
        await client.send(HttpRequest("GET", upstream.base + "/a", {}, budget=budget))
    assert "100,000 bytes (gateway.maxRequestBytes)" in raised.value.message and raised.value.status == 400
    # another request, another budget: the connection and the client are fine
    response = await client.send(HttpRequest("GET", upstream.base + "/a", {}, budget=AnswerBudget(50_000)))
    assert response.status == 200


async def test_a_compressed_answer_counts_for_what_it_decompresses_to(upstream, client):
    upstream.reply("GET", "/z", body=gzip.compress(b"y" * 200_000), headers={"Content-Encoding": "gzip"})
    with pytest.raises(RequestBytesExceeded):
        await client.send(HttpRequest("GET", upstream.base + "/z", {}, budget=AnswerBudget(100_000)))
    response = await client.send(HttpRequest("GET", upstream.base + "/z", {}, budget=AnswerBudget(300_000)))
    assert len(response.body) == 200_000


async def test_without_a_budget_only_the_answers_own_cap_holds(upstream, client):
    upstream.reply("GET", "/a", body=b"x" * 40_000)
    for _ in range(5):
        assert (await client.send(HttpRequest("GET", upstream.base + "/a", {}))).status == 200
