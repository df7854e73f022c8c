"""The slips of SCENARIOS.md's "typos" table: never guessed, never sent broken."""

import pytest

from qlgate.ebay.status import EbayError
from qlgate.errors import QlSyntaxError, TableNotFound


async def test_unterminated_token_is_a_compile_error_at_the_brace(ebay, emulator):
    script = 'x = 1;\n\nreturn insert into ebay.trading.AddToWatchList (ItemID) values ("{itemid");'
    with pytest.raises(QlSyntaxError) as info:
        await ebay.execute(script)
    assert (info.value.line, info.value.column) == (3, 66) and "'{itemid'" in info.value.message
    assert emulator.sandbox.requests == []


async def test_a_stray_closing_brace_is_reported_the_same_way(ebay):
    with pytest.raises(QlSyntaxError, match="unmatched '}'") as info:
        await ebay.execute('return insert into ebay.trading.AddToWatchList (ItemID) values ("itemid}")')
    assert info.value.column == 72


async def test_a_near_miss_name_warns_and_the_call_fails_on_ebays_side(ebay, emulator):
    script = (
        "itemId = select searchResult.item[0].itemId from ebay.finding.findItemsByKeywords "
        'where keywords = "iphone5";\n'
        'return insert into ebay.trading.AddToWatchList (ItemID, Bogus.Column) values ("{itemid}", "x")'
    )
    with pytest.raises(EbayError) as info:
        await ebay.execute(script)
    assert "37 Error" in str(info.value)
    assert "line 2: 'itemid' is never assigned; did you mean 'itemId'?" in info.value.warnings
    assert any("Bogus.Column is not a field of AddToWatchList" in w for w in info.value.warnings)
    assert "<ItemID>" not in emulator.sandbox.requests[-1].body


async def test_unknown_table_is_reported_where_it_is_written(ebay, emulator):
    with pytest.raises(TableNotFound) as info:
        await ebay.execute('ids = select * from ebay.finding.findItemsByKeywordsQA where keywords = "x"')
    assert (info.value.line, info.value.column) == (1, 21)
    assert emulator.sandbox.requests == []


async def test_a_body_written_for_another_call_is_refused_by_the_emulator(ebay):
    with pytest.raises(EbayError, match="does not match the call SetMessagePreferences"):
        await ebay.execute(
            "insert into ebay.trading.SetMessagePreferences values ('<SetNotificationPreferencesRequest "
            'xmlns="urn:ebay:apis:eBLBaseComponents"><RequesterCredentials><eBayAuthToken>TEST-TOKEN'
            "</eBayAuthToken></RequesterCredentials></SetNotificationPreferencesRequest>')"
        )


async def test_finding_limit_and_offset_map_onto_pagination_input(ebay, emulator):
    result = await ebay.execute(
        "return select searchResult.item[*].itemId from ebay.finding.findItemsByKeywords "
        'where keywords = "iphone" limit 2 offset 2'
    )
    body = emulator.sandbox.requests[0].body
    assert "<paginationInput><pageNumber>2</pageNumber><entriesPerPage>2</entriesPerPage></paginationInput>" in body
    expected = [i.item_id for i in emulator.sandbox.market.search(keywords="iphone")[2:4]]
    assert [str(i) for i in result.value[0]] == expected
