"""How many bytes of upstream answers one request may read, over all its calls
(``gateway.maxRequestBytes`` for a gateway request). Charged as the bytes
arrive, by the connection reading an answer (``wire.py``), so a request whose
fan-out brings back more is stopped while it reads, not after it holds it all:
fifty answers of 9 MB once took a gateway to 1.6 GB for one caller."""

from __future__ import annotations


class AnswerBudget:
    __slots__ = ("limit", "spent")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.spent = 0

    def take(self, size: int) -> bool:
        """Count ``size`` more bytes; False once the request has read more than its limit."""
        self.spent += size
        return self.spent <= self.limit
