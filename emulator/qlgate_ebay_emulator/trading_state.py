"""What only the Trading API of the emulator keeps, beside the shared marketplace
(``state.py``: users, items, orders): feedback, member messages, best offers,
Selling Manager folders, templates and automation rules, disputes, preferences,
stores and Auth'n'Auth sign-in sessions.

One ``TradingState`` per ``Marketplace`` (``market.trading``), made anew on every
reset, so the control endpoint's reset forgets it too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Feedback:
    feedback_id: str
    commenter: str  # who left it
    target: str  # whom it is about
    role: str  # the target's role in the sale: "Seller" | "Buyer"
    comment_type: str  # Positive | Neutral | Negative
    text: str
    time: str
    item_id: str | None = None
    transaction_id: str | None = None
    title: str | None = None
    response: str | None = None
    response_type: str | None = None


@dataclass
class Message:
    """A member message (a question about an item, its answer) and its copy in the
    recipient's My Messages inbox."""

    message_id: str
    sender: str
    recipient: str
    subject: str
    body: str
    time: str
    item_id: str | None = None
    question_type: str = "General"
    message_type: str = "AskSellerQuestion"
    parent_id: str | None = None
    status: str = "Unanswered"  # of a question: Unanswered | Answered
    read: bool = False
    flagged: bool = False
    folder_id: int = 0  # 0 the inbox, 1 sent
    deleted: bool = False
    displayed_to_public: bool = False


@dataclass
class BestOffer:
    best_offer_id: str
    item_id: str
    buyer: str
    price: float
    quantity: int
    time: str
    message: str = ""
    status: str = "Pending"  # Pending | Accepted | Declined | Countered | Expired
    counter_price: float | None = None
    seller_message: str = ""


@dataclass
class Folder:
    folder_id: str
    owner: str
    name: str
    parent_id: str | None = None
    comment: str = ""


@dataclass
class SaleTemplate:
    template_id: str
    owner: str
    name: str
    product_id: str | None
    item: dict[str, Any]  # the listing's fields: Title, PrimaryCategory.CategoryID, StartPrice…


@dataclass
class Dispute:
    dispute_id: str
    item_id: str
    buyer: str
    seller: str
    reason: str
    explanation: str
    opened_by: str
    time: str
    transaction_id: str | None = None
    state: str = "Open"  # Open | Closed
    status: str = "WaitingForBuyerResponse"
    messages: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class TradingState:
    feedback: list[Feedback] = field(default_factory=list)
    messages: dict[str, Message] = field(default_factory=dict)
    best_offers: dict[str, BestOffer] = field(default_factory=dict)
    folders: dict[tuple[str, str], Folder] = field(default_factory=dict)  # (owner, folder id) →
    templates: dict[str, SaleTemplate] = field(default_factory=dict)
    item_rules: dict[str, dict[str, Any]] = field(default_factory=dict)  # item id → rule kind → rule
    template_rules: dict[str, dict[str, Any]] = field(default_factory=dict)
    feedback_options: dict[str, dict[str, Any]] = field(default_factory=dict)  # user → options
    user_preferences: dict[str, dict[str, Any]] = field(default_factory=dict)
    notification_preferences: dict[str, dict[str, Any]] = field(default_factory=dict)
    message_preferences: dict[str, list[str]] = field(default_factory=dict)  # user → ASQ subjects
    stores: dict[str, dict[str, Any]] = field(default_factory=dict)
    notes: dict[tuple[str, str], str] = field(default_factory=dict)  # (user, item id) → note
    disputes: dict[str, Dispute] = field(default_factory=dict)
    sessions: dict[str, str | None] = field(default_factory=dict)  # session id → signed-in user
    token_expiry: dict[str, str] = field(default_factory=dict)  # token → HardExpirationTime
    pictures: list[str] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)  # call name → calls answered
    message_folders: dict[str, dict[str, str]] = field(default_factory=dict)  # user → folder id → name
    extras: dict[str, dict[str, Any]] = field(default_factory=dict)  # item id → SKU, BuyItNowPrice, best offer…
    next_id: int = 1000

    def new_id(self, base: int = 0) -> str:
        self.next_id += 1
        return str(base + self.next_id)

    @classmethod
    def from_seed(cls, data: dict[str, Any]) -> TradingState:
        """Selling Manager folders from the seed's users (``"folders": {"id": "name"}``)."""
        state = cls()
        for user in data.get("users", []):
            for folder_id, name in (user.get("folders") or {}).items():
                state.folders[(user["UserID"], str(folder_id))] = Folder(str(folder_id), user["UserID"], name)
        for m in data.get("messages", []):
            message = Message(
                m["MessageID"],
                m["Sender"],
                m["Recipient"],
                m["Subject"],
                m["Body"],
                m.get("Time", "2012-09-20T10:00:00.000Z"),
                item_id=m.get("ItemID"),
                question_type=m.get("QuestionType", "General"),
            )
            state.messages[message.message_id] = message
        return state
