"""The Account API (``/sell/account/v1``): a seller's business policies — fulfillment,
payment and return — created, read (by id, by name, by marketplace), replaced and
deleted; privileges and opted-in programs, simply. Policies are per seller, kept with
the other REST-only seller data (rest_common.SellerData) and forgotten on reset.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .rest_common import Handler, Reply, RestCall, RestError, amount

KINDS = {
    "fulfillment_policy": ("fulfillmentPolicyId", "fulfillmentPolicies", "fulfillmentPolicyId"),
    "payment_policy": ("paymentPolicyId", "paymentPolicies", "payment_policy_id"),
    "return_policy": ("returnPolicyId", "returnPolicies", "return_policy_id"),
}
NOT_FOUND = 20404
INVALID = 20400


def _policies(call: RestCall, kind: str) -> dict[str, dict[str, Any]]:
    return call.data.policies.setdefault(kind, {})


def _public(policy: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in policy.items() if not k.startswith("_")}


def _find(call: RestCall, kind: str) -> dict[str, Any]:
    id_field, _, param = KINDS[kind]
    policy_id = call.params.get(param, "")
    policy = _policies(call, kind).get(policy_id)
    if policy is None or policy["_seller"] != call.user:
        raise RestError(
            404, NOT_FOUND, f"No {kind.replace('_', ' ')} with ID {policy_id}.", parameters={id_field: policy_id}
        )
    return policy


def _check(call: RestCall, kind: str, body: dict[str, Any], keep: str | None = None) -> None:
    for name in ("name", "marketplaceId"):
        call.required(name, INVALID, body.get(name) or "")
    if not isinstance(body.get("categoryTypes"), list) or not body["categoryTypes"]:
        raise RestError(400, 20401, "Missing field categoryTypes.", parameters={"fieldName": "categoryTypes"})
    mine = (call.user, body["marketplaceId"], body["name"])
    for policy_id, other in _policies(call, kind).items():
        if (other["_seller"], other["marketplaceId"], other["name"]) == mine and policy_id != keep:
            raise RestError(
                400, 20400, "Duplicate policy name.", f"A policy named {body['name']} exists.",
                parameters={"name": str(body["name"])},
            )  # fmt: skip


def _create(kind: str) -> Handler:
    def create(call: RestCall) -> Reply:
        body = call.json()
        _check(call, kind, body)
        policy_id = call.data.new_id()
        policy = {**body, KINDS[kind][0]: policy_id, "_seller": call.user}
        _policies(call, kind)[policy_id] = policy
        return Reply(_public(policy), 201, {"Location": call.href(f"/{kind}/{policy_id}")})

    return create


def _get(kind: str) -> Handler:
    return lambda call: Reply(_public(_find(call, kind)))


def _update(kind: str) -> Handler:
    def update(call: RestCall) -> Reply:
        policy = _find(call, kind)
        body = call.json()
        _check(call, kind, body, keep=policy[KINDS[kind][0]])
        policy.clear()
        policy.update({**body, KINDS[kind][0]: call.params[KINDS[kind][2]], "_seller": call.user})
        return Reply(_public(policy))

    return update


def _delete(kind: str) -> Handler:
    def delete(call: RestCall) -> Reply:
        policy = _find(call, kind)
        in_use = [
            o for o in call.data.offers.values() if policy[KINDS[kind][0]] in (o.get("listingPolicies") or {}).values()
        ]
        if in_use:
            raise RestError(409, 20402, "The policy is in use by an offer.", category="BUSINESS")
        del _policies(call, kind)[policy[KINDS[kind][0]]]
        return Reply(None, 204)

    return delete


def _mine(call: RestCall, kind: str) -> list[dict[str, Any]]:
    marketplace = str(call.required("marketplace_id", INVALID))
    return [
        _public(p)
        for p in _policies(call, kind).values()
        if p["_seller"] == call.user and p["marketplaceId"] == marketplace
    ]


def _list(kind: str) -> Handler:
    def listing(call: RestCall) -> Reply:
        found = _mine(call, kind)
        return Reply(
            {"href": call.href(f"/{kind}"), "total": len(found), "limit": 20, "offset": 0, KINDS[kind][1]: found}
        )

    return listing


def _by_name(kind: str) -> Handler:
    def by_name(call: RestCall) -> Reply:
        name = str(call.required("name", INVALID))
        for policy in _mine(call, kind):
            if policy["name"] == name:
                return Reply(policy)
        raise RestError(404, NOT_FOUND, f"No {kind.replace('_', ' ')} named {name}.", parameters={"name": name})

    return by_name


def get_privileges(call: RestCall) -> Reply:
    limit = {"amount": amount(25000.0), "quantity": 1000}
    return Reply({"sellerRegistrationCompleted": True, "sellingLimit": limit})


def get_opted_in_programs(call: RestCall) -> Reply:
    return Reply({"programs": [{"programType": "SELLING_POLICY_MANAGEMENT"}]})


def _handlers() -> dict[str, Callable[[RestCall], Reply]]:
    out: dict[str, Callable[[RestCall], Reply]] = {
        "sell.account.getPrivileges": get_privileges,
        "sell.account.getOptedInPrograms": get_opted_in_programs,
    }
    for kind, name in (
        ("fulfillment_policy", "Fulfillment"),
        ("payment_policy", "Payment"),
        ("return_policy", "Return"),
    ):
        out |= {
            f"sell.account.create{name}Policy": _create(kind),
            f"sell.account.get{name}Policy": _get(kind),
            f"sell.account.update{name}Policy": _update(kind),
            f"sell.account.delete{name}Policy": _delete(kind),
            f"sell.account.get{name}Policies": _list(kind),
            f"sell.account.get{name}PolicyByName": _by_name(kind),
        }
    return out


HANDLERS = _handlers()
