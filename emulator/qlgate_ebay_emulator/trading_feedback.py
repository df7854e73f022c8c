"""The Trading API's after-sale calls (``trading.py`` dispatches them): feedback
between buyer and seller (leave, read, respond, what still awaits it) and
disputes (unpaid items: open, answer, read, reverse).

Both are about a sale of the shared marketplace (``state.Order``); feedback
moves the target user's feedback score.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .state import User, stamp
from .trading_common import Failure, TradingCalls, need, need_one, page, scalar
from .trading_state import Dispute, Feedback

DISPUTE_REASONS = {"BuyerHasNotPaid", "TransactionMutuallyCanceled"}
DISPUTE_ACTIVITIES = {"SellerAddInformation", "SellerComment", "SellerEndCommunication", "SellerOffersRefund"}


class FeedbackCalls(TradingCalls):
    CALLS: ClassVar[dict[str, str]] = {
        "LeaveFeedback": "leave_feedback",
        "GetFeedback": "get_feedback",
        "RespondToFeedback": "respond_to_feedback",
        "GetItemsAwaitingFeedback": "get_items_awaiting_feedback",
        "AddDispute": "add_dispute",
        "AddDisputeResponse": "add_dispute_response",
        "GetDispute": "get_dispute",
        "GetUserDisputes": "get_user_disputes",
        "SellerReverseDispute": "seller_reverse_dispute",
        "DisableUnpaidItemAssistance": "disable_unpaid_item_assistance",
    }

    # ---------------------------------------------------------------- feedback
    def leave_feedback(self, user: User, doc: dict) -> dict:
        need(doc, "CommentText", "CommentType", "TargetUser")
        need_one(doc, "ItemID", "OrderLineItemID")
        target = str(scalar(doc, "TargetUser"))
        if self.market.user(target) is None:
            raise Failure(21, "Invalid UserID.", f"The user {target} does not exist.", "TargetUser")
        order, line = self._sale(user, doc)
        feedback = self.record_feedback(
            user.user_id, target, scalar(doc, "CommentType"), scalar(doc, "CommentText"), order, line
        )
        return {"FeedbackID": feedback.feedback_id}

    def _feedback_fields(self, f: Feedback) -> dict:
        return {
            "CommentingUser": f.commenter,
            "CommentingUserScore": self.market.users[f.commenter].feedback if f.commenter in self.market.users else 0,
            "CommentText": f.text,
            "CommentTime": f.time,
            "CommentType": f.comment_type,
            "FeedbackResponse": f.response,
            "ItemID": f.item_id,
            "Role": f.role,
            "ItemTitle": f.title,
            "FeedbackID": f.feedback_id,
            "TransactionID": f.transaction_id,
            "OrderLineItemID": f"{f.item_id}-{f.transaction_id}" if f.item_id else None,
        }

    def get_feedback(self, user: User, doc: dict) -> dict:
        target = str(scalar(doc, "UserID") or user.user_id)
        subject = self.market.user(target)
        if subject is None:
            raise Failure(21, "Invalid UserID.", f"The user {target} does not exist.", "UserID")
        received = [f for f in self.market.trading.feedback if f.target == target]
        if scalar(doc, "FeedbackID"):
            received = [f for f in received if f.feedback_id == str(scalar(doc, "FeedbackID"))]
        if scalar(doc, "ItemID"):
            received = [f for f in received if f.item_id == str(scalar(doc, "ItemID"))]
        if scalar(doc, "CommentType"):
            received = [f for f in received if f.comment_type == scalar(doc, "CommentType")]
        role = scalar(doc, "FeedbackType")
        if role in ("FeedbackReceivedAsSeller", "FeedbackReceivedAsBuyer"):
            received = [f for f in received if f.role == role.removeprefix("FeedbackReceivedAs")]
        received.reverse()  # newest first
        rows, result = page(doc, received, 25)
        counts = {k: sum(f.comment_type == k for f in received) for k in ("Positive", "Neutral", "Negative")}
        return {
            "FeedbackDetailArray": {"FeedbackDetail": [self._feedback_fields(f) for f in rows]} if rows else None,
            "FeedbackDetailItemTotal": len(rows),
            "FeedbackSummary": {
                "UniquePositiveFeedbackCount": counts["Positive"],
                "UniqueNegativeFeedbackCount": counts["Negative"],
                "UniqueNeutralFeedbackCount": counts["Neutral"],
            },
            "FeedbackScore": subject.feedback,
            "PaginationResult": result,
        }

    def respond_to_feedback(self, user: User, doc: dict) -> dict:
        need(doc, "FeedbackID", "ResponseType", "ResponseText", "TargetUserID")
        feedback = next(
            (f for f in self.market.trading.feedback if f.feedback_id == str(scalar(doc, "FeedbackID"))), None
        )
        if (
            feedback is None
            or feedback.target != user.user_id
            or feedback.commenter != str(scalar(doc, "TargetUserID"))
        ):
            raise Failure(
                21916179, "Invalid feedback.", "No feedback with this ID was left for you by that user.", "FeedbackID"
            )
        kind = scalar(doc, "ResponseType")
        if kind not in ("Reply", "FollowUp"):
            raise Failure(37, "Input data is invalid.", "ResponseType is Reply or FollowUp.", "ResponseType")
        if kind == "Reply" and feedback.response:
            raise Failure(21916180, "Already replied.", "You have already replied to this feedback.", "FeedbackID")
        feedback.response, feedback.response_type = str(scalar(doc, "ResponseText")), kind
        return {}

    def get_items_awaiting_feedback(self, user: User, doc: dict) -> dict:
        waiting = []
        for order in self.market.orders.values():
            if user.user_id not in (order.buyer, order.seller):
                continue
            for line in order.line_items:
                left = any(
                    f.commenter == user.user_id and f.transaction_id == line.line_item_id
                    for f in self.market.trading.feedback
                )
                if not left:
                    waiting.append(
                        {
                            **self.transaction_fields(order, line),
                            "FeedbackReceived": next(
                                (
                                    {"CommentType": f.comment_type}
                                    for f in self.market.trading.feedback
                                    if f.target == user.user_id and f.transaction_id == line.line_item_id
                                ),
                                None,
                            ),
                        }
                    )
        rows, result = page(doc, waiting, 25)
        return {
            "ItemsAwaitingFeedback": {
                "TransactionArray": {"Transaction": rows} if rows else None,
                "PaginationResult": result,
            }
        }

    # ---------------------------------------------------------------- disputes
    def _dispute(self, user: User, dispute_id: Any) -> Dispute:
        dispute = self.market.trading.disputes.get(str(dispute_id or ""))
        if dispute is None or user.user_id not in (dispute.buyer, dispute.seller):
            raise Failure(
                21916157, "Invalid dispute.", f"Dispute {dispute_id} does not exist or is not yours.", "DisputeID"
            )
        return dispute

    def _dispute_fields(self, d: Dispute) -> dict:
        return {
            "DisputeID": d.dispute_id,
            "DisputeRecordType": "UnpaidItem",
            "DisputeState": d.state,
            "DisputeStatus": d.status,
            "OtherPartyRole": "Buyer",
            "OtherPartyName": d.buyer,
            "UserRole": "Seller",
            "BuyerUserID": d.buyer,
            "SellerUserID": d.seller,
            "TransactionID": d.transaction_id,
            "DisputeReason": d.reason,
            "DisputeExplanation": d.explanation,
            "DisputeCreatedTime": d.time,
            "DisputeMessage": d.messages or None,
            "Item": {"ItemID": d.item_id},
        }

    def add_dispute(self, user: User, doc: dict) -> dict:
        need(doc, "DisputeExplanation", "DisputeReason")
        need_one(doc, "OrderLineItemID", "ItemID")
        order, line = self._sale(user, doc)
        if order.seller != user.user_id:
            raise Failure(21916624, "Not the seller.", "Only the seller opens an unpaid-item dispute.")
        reason = str(scalar(doc, "DisputeReason"))
        if reason not in DISPUTE_REASONS:
            raise Failure(37, "Input data is invalid.", f"DisputeReason {reason} is not supported.", "DisputeReason")
        if reason == "BuyerHasNotPaid" and order.paid:
            raise Failure(21916159, "Order is paid.", "The buyer has paid: no unpaid-item dispute.", "ItemID")
        if any(
            d.item_id == line.item_id and d.transaction_id == line.line_item_id
            for d in self.market.trading.disputes.values()
        ):
            raise Failure(21916158, "Dispute exists.", "A dispute for this sale is already open.", "ItemID")
        dispute = Dispute(
            self.market.trading.new_id(8000000000),
            line.item_id,
            order.buyer,
            order.seller,
            reason,
            str(scalar(doc, "DisputeExplanation")),
            user.user_id,
            stamp(),
            line.line_item_id,
        )
        self.market.trading.disputes[dispute.dispute_id] = dispute
        return {"DisputeID": dispute.dispute_id}

    def add_dispute_response(self, user: User, doc: dict) -> dict:
        need(doc, "DisputeID", "DisputeActivity")
        dispute = self._dispute(user, scalar(doc, "DisputeID"))
        activity = str(scalar(doc, "DisputeActivity"))
        if activity not in DISPUTE_ACTIVITIES:
            raise Failure(
                37, "Input data is invalid.", f"DisputeActivity {activity} is not supported.", "DisputeActivity"
            )
        if dispute.state == "Closed":
            raise Failure(21916160, "Dispute closed.", f"Dispute {dispute.dispute_id} is closed.", "DisputeID")
        dispute.messages.append(
            {
                "MessageID": len(dispute.messages) + 1,
                "MessageSource": "Seller",
                "MessageCreationTime": stamp(),
                "MessageText": scalar(doc, "MessageText") or activity,
            }
        )
        if activity == "SellerEndCommunication":
            dispute.state, dispute.status = "Closed", "ClosedNoFeedback"
            order, _ = self._sale(user, {"ItemID": dispute.item_id, "TransactionID": dispute.transaction_id})
            order.status = "CANCELLED"
        return {"DisputeID": dispute.dispute_id}

    def get_dispute(self, user: User, doc: dict) -> dict:
        need(doc, "DisputeID")
        return {"Dispute": self._dispute_fields(self._dispute(user, scalar(doc, "DisputeID")))}

    def get_user_disputes(self, user: User, doc: dict) -> dict:
        kind = scalar(doc, "DisputeFilterType") or "AllInvolvedDisputes"
        disputes = [d for d in self.market.trading.disputes.values() if user.user_id in (d.buyer, d.seller)]
        if kind == "AllInvolvedClosedDisputes":
            disputes = [d for d in disputes if d.state == "Closed"]
        elif kind == "UnpaidItemDisputes" or kind == "AllInvolvedDisputes":
            disputes = [d for d in disputes if kind == "AllInvolvedDisputes" or d.reason == "BuyerHasNotPaid"]
        else:
            raise Failure(
                37, "Input data is invalid.", f"DisputeFilterType {kind} is not supported.", "DisputeFilterType"
            )
        rows, result = page(doc, disputes, 200)
        return {
            "StartingDisputeID": rows[0].dispute_id if rows else None,
            "EndingDisputeID": rows[-1].dispute_id if rows else None,
            "DisputeArray": {"Dispute": [self._dispute_fields(d) for d in rows]} if rows else None,
            "ItemsPerPage": len(rows),
            "PageNumber": 1,
            "DisputeFilterCount": {"DisputeFilterType": kind, "TotalAvailable": len(disputes)},
            "PaginationResult": result,
        }

    def seller_reverse_dispute(self, user: User, doc: dict) -> dict:
        need(doc, "DisputeID", "DisputeResolutionReason")
        dispute = self._dispute(user, scalar(doc, "DisputeID"))
        if dispute.seller != user.user_id or dispute.state == "Closed":
            raise Failure(21916160, "Dispute cannot be reversed.", "Only an open dispute you opened can be reversed.")
        dispute.state, dispute.status = "Closed", "ClosedFVFCreditNoStrike"
        return {}

    def disable_unpaid_item_assistance(self, user: User, doc: dict) -> dict:
        need_one(doc, "OrderLineItemID", "ItemID", "DisputeID")
        if scalar(doc, "DisputeID"):
            dispute = self._dispute(user, scalar(doc, "DisputeID"))
            doc = {"ItemID": dispute.item_id, "TransactionID": dispute.transaction_id}
        order, line = self._sale(user, doc)
        if order.seller != user.user_id:
            raise Failure(21916624, "Not the seller.", "Only the seller manages unpaid-item assistance.")
        self.market.trading.extras.setdefault(line.item_id, {})["UnpaidItemAssistance"] = False
        return {}
