"""The Trading API's messaging calls (``trading.py`` dispatches them): member
messages about an item (a question to a sale's partner or to bidders, the
answer to a question), the My Messages inbox (read, flag, file, delete) and
its folders, and the seller's Ask-a-Question subjects.

Every member message lands in its recipient's My Messages inbox.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .state import User, stamp
from .trading_common import Failure, TradingCalls, flag, need, need_one, page, scalar, texts
from .trading_listing import parse_time
from .trading_state import Message
from .wire import as_list, get

QUESTION_TYPES = {"CustomizedSubject", "General", "MultipleItemShipping", "None", "Payment", "Shipping"}


class MessageCalls(TradingCalls):
    CALLS: ClassVar[dict[str, str]] = {
        "AddMemberMessageAAQToPartner": "add_member_message_aaq_to_partner",
        "AddMemberMessageRTQ": "add_member_message_rtq",
        "AddMemberMessagesAAQToBidder": "add_member_messages_aaq_to_bidder",
        "GetMemberMessages": "get_member_messages",
        "GetMyMessages": "get_my_messages",
        "DeleteMyMessages": "delete_my_messages",
        "ReviseMyMessages": "revise_my_messages",
        "ReviseMyMessagesFolders": "revise_my_messages_folders",
        "GetMessagePreferences": "get_message_preferences",
        "SetMessagePreferences": "set_message_preferences",
    }

    def _send(self, sender: str, recipient: str, subject: str, body: str, item_id: str | None, **kw: Any) -> Message:
        if self.market.user(recipient) is None:
            raise Failure(21, "Invalid UserID.", f"The recipient {recipient} does not exist.", "RecipientID")
        if not body or len(body) > 2000:
            raise Failure(
                37, "Input data is invalid.", "The message body is missing or longer than 2000 characters.", "Body"
            )
        message = Message(
            self.market.trading.new_id(4520000000), sender, recipient, subject, body, stamp(), item_id, **kw
        )
        self.market.trading.messages[message.message_id] = message
        return message

    # ---------------------------------------------------------------- member messages
    def add_member_message_aaq_to_partner(self, user: User, doc: dict) -> dict:
        need(
            doc,
            "ItemID",
            "MemberMessage.Body",
            "MemberMessage.QuestionType",
            "MemberMessage.RecipientID",
            "MemberMessage.Subject",
        )
        item = self._item(scalar(doc, "ItemID"))
        recipient = str(scalar(doc, "MemberMessage.RecipientID"))
        kind = str(scalar(doc, "MemberMessage.QuestionType"))
        if kind not in QUESTION_TYPES:
            raise Failure(37, "Input data is invalid.", f"QuestionType {kind} is not valid.", "QuestionType")
        partners = any(
            {o.buyer, o.seller} == {user.user_id, recipient}
            for o in self.market.orders.values()
            if any(li.item_id == item.item_id for li in o.line_items)
        )
        if not partners:
            raise Failure(
                20134,
                "Not a transaction partner.",
                f"You and {recipient} have no sale of item {item.item_id}.",
                "RecipientID",
            )
        self._send(
            user.user_id,
            recipient,
            str(scalar(doc, "MemberMessage.Subject")),
            str(scalar(doc, "MemberMessage.Body")),
            item.item_id,
            question_type=kind,
            message_type="ContactTransactionPartner",
        )
        return {}

    def add_member_message_rtq(self, user: User, doc: dict) -> dict:
        need(doc, "MemberMessage.Body", "MemberMessage.ParentMessageID", "MemberMessage.RecipientID")
        parent = self.market.trading.messages.get(str(scalar(doc, "MemberMessage.ParentMessageID")))
        recipient = str(scalar(doc, "MemberMessage.RecipientID"))
        if parent is None or parent.recipient != user.user_id or parent.sender != recipient:
            raise Failure(
                20137,
                "Invalid parent message.",
                "The question does not exist or was not asked of you by this user.",
                "ParentMessageID",
            )
        if scalar(doc, "ItemID") and parent.item_id and str(scalar(doc, "ItemID")) != parent.item_id:
            raise Failure(20138, "Item does not match.", "The question is about another item.", "ItemID")
        self._send(
            user.user_id,
            recipient,
            f"RE: {parent.subject}",
            str(scalar(doc, "MemberMessage.Body")),
            parent.item_id,
            message_type="ResponseToASQQuestion",
            parent_id=parent.message_id,
            status="Answered",
            displayed_to_public=flag(scalar(doc, "MemberMessage.DisplayToPublic")),
        )
        parent.status = "Answered"
        return {}

    def add_member_messages_aaq_to_bidder(self, user: User, doc: dict) -> dict:
        containers = as_list(get(doc, "AddMemberMessagesAAQToBidderRequestContainer"))
        if not containers:
            raise Failure(37, "Input data is invalid.", "AddMemberMessagesAAQToBidderRequestContainer is missing.")
        out = []
        for c in containers:
            c = c if isinstance(c, dict) else {}
            for f in ("CorrelationID", "ItemID"):
                if not c.get(f):
                    raise Failure(37, "Input data is invalid.", f"{f} is missing.", f)
            try:
                item = self._own(user, c["ItemID"])
                recipients = texts(get(c, "MemberMessage.RecipientID"))
                body = scalar(c, "MemberMessage.Body")
                if not recipients or not body:
                    raise Failure(37, "Input data is invalid.", "MemberMessage Body and RecipientID are required.")
                for r in recipients:
                    if r not in item.max_bids and not any(
                        o.best_offer_id
                        for o in self.market.trading.best_offers.values()
                        if o.buyer == r and o.item_id == item.item_id
                    ):
                        raise Failure(20136, "Not a bidder.", f"{r} has not bid on item {item.item_id}.", r)
                for r in recipients:
                    self._send(
                        user.user_id,
                        r,
                        scalar(c, "MemberMessage.Subject") or item.title,
                        str(body),
                        item.item_id,
                        message_type="AskSellerQuestion",
                    )
                out.append({"CorrelationID": c["CorrelationID"], "Ack": "Success"})
            except Failure as f:
                out.append({"CorrelationID": c["CorrelationID"], "Ack": "Failure", "Errors": f.errors()})
        return {"AddMemberMessagesAAQToBidderResponseContainer": out}

    def get_member_messages(self, user: User, doc: dict) -> dict:
        need(doc, "MailMessageType")
        need_one(doc, "ItemID", "StartCreationTime")
        kind = scalar(doc, "MailMessageType")
        if kind not in ("All", "AskSellerQuestion"):
            raise Failure(37, "Input data is invalid.", f"MailMessageType {kind} is not supported.", "MailMessageType")
        since = parse_time(scalar(doc, "StartCreationTime"), "StartCreationTime")
        status = scalar(doc, "MessageStatus")
        questions = [
            m
            for m in self.market.trading.messages.values()
            if m.parent_id is None
            and m.message_type in ("AskSellerQuestion", "ContactTransactionPartner")
            and (kind == "All" or m.message_type == kind)
            and user.user_id in (m.sender, m.recipient)
            and (not scalar(doc, "ItemID") or m.item_id == str(scalar(doc, "ItemID")))
            and (since is None or (parse_time(m.time, "Time") or since) >= since)
            and (not status or m.status == status)
        ]
        rows, result = page(doc, questions, 25)
        exchanges = []
        for q in rows:
            answers = [m for m in self.market.trading.messages.values() if m.parent_id == q.message_id]
            item = self.market.items.get(q.item_id or "")
            exchanges.append(
                {
                    "Item": self.item_fields(item) if item else None,
                    "Question": {
                        "MessageType": q.message_type,
                        "QuestionType": q.question_type,
                        "DisplayToPublic": q.displayed_to_public,
                        "SenderID": q.sender,
                        "RecipientID": q.recipient,
                        "Subject": q.subject,
                        "Body": q.body,
                        "MessageID": q.message_id,
                    },
                    "Response": [a.body for a in answers] or None,
                    "MessageStatus": q.status,
                    "CreationDate": q.time,
                    "LastModifiedDate": answers[-1].time if answers else q.time,
                }
            )
        return {
            "MemberMessage": {"MemberMessageExchange": exchanges} if exchanges else None,
            "PaginationResult": result,
            "HasMoreItems": len(rows) < len(questions),
        }

    # ---------------------------------------------------------------- My Messages
    def _mine(self, user: User, ids: list[str]) -> list[Message]:
        found = []
        for message_id in ids:
            m = self.market.trading.messages.get(message_id)
            if m is None or m.recipient != user.user_id or m.deleted:
                raise Failure(
                    20163, "Invalid message ID.", f"Message {message_id} is not in your messages.", message_id
                )
            found.append(m)
        return found

    def get_my_messages(self, user: User, doc: dict) -> dict:
        need(doc, "DetailLevel")
        level = str(scalar(doc, "DetailLevel"))
        if level not in ("ReturnHeaders", "ReturnMessages", "ReturnSummary"):
            raise Failure(37, "Input data is invalid.", f"DetailLevel {level} is not valid here.", "DetailLevel")
        inbox = [m for m in self.market.trading.messages.values() if m.recipient == user.user_id and not m.deleted]
        if level == "ReturnSummary":
            folders = sorted({m.folder_id for m in inbox} | {0, 1})
            return {
                "Summary": {
                    "FolderSummary": [
                        {
                            "FolderID": f,
                            "NewMessageCount": sum(not m.read for m in inbox if m.folder_id == f),
                            "TotalMessageCount": sum(m.folder_id == f for m in inbox),
                        }
                        for f in folders
                    ],
                    "NewMessageCount": sum(not m.read for m in inbox),
                    "FlaggedMessageCount": sum(m.flagged for m in inbox),
                    "TotalMessageCount": len(inbox),
                }
            }
        ids = texts(get(doc, "MessageIDs.MessageID"))
        if ids:
            inbox = self._mine(user, ids)
        if scalar(doc, "FolderID") not in (None, ""):
            inbox = [m for m in inbox if str(m.folder_id) == str(scalar(doc, "FolderID"))]
        rows, result = page(doc, inbox, 25)
        full = level == "ReturnMessages"
        return {
            "Messages": {
                "Message": [
                    {
                        "Sender": m.sender,
                        "RecipientUserID": m.recipient,
                        "SendToName": m.recipient,
                        "Subject": m.subject,
                        "MessageID": m.message_id,
                        "Text": m.body if full else None,
                        "Flagged": m.flagged,
                        "Read": m.read,
                        "ReceiveDate": m.time,
                        "ItemID": m.item_id,
                        "Folder": {"FolderID": m.folder_id},
                        "MessageType": m.message_type,
                        "Replied": any(a.parent_id == m.message_id for a in self.market.trading.messages.values()),
                    }
                    for m in rows
                ]
            }
            if rows
            else None,
            "PaginationResult": result,
        }

    def delete_my_messages(self, user: User, doc: dict) -> dict:
        need_one(doc, "MessageIDs", "AlertIDs")
        ids = texts(get(doc, "MessageIDs.MessageID"))
        if not ids:
            raise Failure(20163, "Invalid message ID.", "Alerts are not emulated: give MessageIDs.", "MessageIDs")
        for m in self._mine(user, ids):
            m.deleted = True
        return {}

    def revise_my_messages(self, user: User, doc: dict) -> dict:
        need_one(doc, "MessageIDs", "AlertIDs")
        ids = texts(get(doc, "MessageIDs.MessageID"))
        if not ids:
            raise Failure(20163, "Invalid message ID.", "Alerts are not emulated: give MessageIDs.", "MessageIDs")
        folder = scalar(doc, "FolderID")
        if folder not in (None, "") and str(folder) not in (
            "0",
            "1",
            *self.market.trading.message_folders.get(user.user_id, {}),
        ):
            raise Failure(20164, "Invalid folder.", f"Folder {folder} does not exist.", "FolderID")
        for m in self._mine(user, ids):
            if scalar(doc, "Read") not in (None, ""):
                m.read = flag(scalar(doc, "Read"))
            if scalar(doc, "Flagged") not in (None, ""):
                m.flagged = flag(scalar(doc, "Flagged"))
            if folder not in (None, ""):
                m.folder_id = int(folder)
        return {}

    def revise_my_messages_folders(self, user: User, doc: dict) -> dict:
        need(doc, "Operation")
        folders = self.market.trading.message_folders.setdefault(user.user_id, {})
        operation = scalar(doc, "Operation")
        ids, names = texts(get(doc, "FolderID")), texts(get(doc, "FolderName"))
        if operation == "Display":
            for name in names:
                folders[str(10 + len(folders))] = name
        elif operation in ("Rename", "Remove"):
            for n, folder_id in enumerate(ids):
                if folder_id not in folders:
                    raise Failure(20164, "Invalid folder.", f"Folder {folder_id} does not exist.", "FolderID")
                if operation == "Rename":
                    folders[folder_id] = names[n] if n < len(names) else folders[folder_id]
                elif any(
                    m.folder_id == int(folder_id) and not m.deleted for m in self.market.trading.messages.values()
                ):
                    raise Failure(20165, "Folder not empty.", f"Folder {folder_id} still holds messages.", "FolderID")
                else:
                    del folders[folder_id]
        else:
            raise Failure(37, "Input data is invalid.", f"Operation {operation} is not valid.", "Operation")
        return {}

    def get_message_preferences(self, user: User, doc: dict) -> dict:
        need(doc, "SellerID")
        seller = str(scalar(doc, "SellerID"))
        if self.market.user(seller) is None:
            raise Failure(21, "Invalid UserID.", f"The user {seller} does not exist.", "SellerID")
        subjects = self.market.trading.message_preferences.get(seller)
        out: dict[str, Any] = {}
        if flag(scalar(doc, "IncludeASQPreferences", "true")):
            out["ASQPreferences"] = {"ResetDefaultSubjects": subjects is None, "Subject": subjects or None}
        return out

    def set_message_preferences(self, user: User, doc: dict) -> dict:
        need(doc, "ASQPreferences")
        if flag(scalar(doc, "ASQPreferences.ResetDefaultSubjects")):
            self.market.trading.message_preferences.pop(user.user_id, None)
            return {}
        subjects = texts(get(doc, "ASQPreferences.Subject"))
        if not subjects or len(subjects) > 9:
            raise Failure(
                37, "Input data is invalid.", "Give 1 to 9 ASQPreferences Subjects.", "ASQPreferences.Subject"
            )
        self.market.trading.message_preferences[user.user_id] = subjects
        return {}
