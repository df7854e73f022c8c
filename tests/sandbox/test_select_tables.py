"""Every select table of the calls the emulator implements returns rows."""

import pytest

SELECTS = {
    "ebay.finding.findItemsByKeywords": 'keywords = "iphone"',
    "ebay.finding.findItemsAdvanced": 'keywords = "apple"',
    "ebay.finding.findItemsByCategory": 'categoryId = "9355"',
    "ebay.finding.findItemsByProduct": 'keywords = "iphone"',
    "ebay.finding.findItemsIneBayStores": 'keywords = "iphone"',
    "ebay.finding.findItemsByImage": 'keywords = "iphone"',
    "ebay.finding.findItemsForFavoriteSearch": 'keywords = "iphone"',
    "ebay.finding.getHistograms": 'categoryId = "9355"',
    "ebay.finding.getSearchKeywordsRecommendation": 'keywords = "Iphone  Five"',
    "ebay.finding.getVersion": None,
    "ebay.shopping.GetSingleItem": 'ItemID = "230851234561"',
    "ebay.shopping.GetMultipleItems": 'ItemID in ("230851234561", "230851234562")',
    "ebay.shopping.GetItemStatus": 'ItemID = "230851234561"',
    "ebay.shopping.GetUserProfile": 'UserID = "testuser_magicalbookseller"',
    "ebay.shopping.GeteBayTime": None,
    "ebay.shopping.FindProducts": 'QueryKeywords = "iphone"',
    "ebay.shopping.FindPopularItems": 'QueryKeywords = "iphone"',
    "ebay.shopping.GetCategoryInfo": 'CategoryID = "9355"',
    "ebay.shopping.GetShippingCosts": 'ItemID = "230851234561"',
    "ebay.trading.GeteBayOfficialTime": None,
    "ebay.trading.GetUser": None,
    "ebay.trading.GetItem": 'ItemID = "230851234561"',
    "ebay.trading.GetSellerList": 'UserID = "testuser_magicalbookseller"',
    "ebay.trading.GetMyeBayBuying": 'WatchList.Include = "true"',
    "ebay.trading.GetSellingManagerInventory": None,
}


@pytest.mark.parametrize("table, where", SELECTS.items(), ids=list(SELECTS))
async def test_select_returns_rows(ebay, table, where):
    script = f"return select * from {table}" + (f" where {where}" if where else "")
    value = (await ebay.execute(script)).value
    assert value not in ({}, [], None)
    rows = value if isinstance(value, list) else [value]
    for row in rows:
        ack = row.get("Ack", row.get("ack")) if isinstance(row, dict) else None
        ack = ack[0] if isinstance(ack, list) else ack  # Finding JSON wraps every value in an array
        assert ack in (None, "Success"), row
