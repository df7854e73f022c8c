-- The 2012 post "ql.io APIs for eBay Marketplaces" (eBay Tech Blog, ebaytechblog.com, Sept 2012),
-- as first published: scenario 2, AddItem + PlaceOffer; this version's opaque AddItem
-- body carries its own RequesterCredentials (Username/Password of the test seller ql.io-test1). Statements as in the post (only the unterminated
-- {itemid closed); the XML bodies are the post's sample data (ql.io-ebay-mp-apis test/inserttest.js).
result = insert into trading.AddItem values ('<?xml version="1.0" encoding="utf-8"?>
<AddItemRequest xmlns="urn:ebay:apis:eBLBaseComponents">
<ErrorLanguage>en_US</ErrorLanguage>
<WarningLevel>High</WarningLevel>
<Item><Title>Harry Potter and the Philosophers Stone</Title>
    <Description>This is the first book in the Harry Potter series. In excellent condition!</Description>
<PrimaryCategory>
    <CategoryID>377</CategoryID>
</PrimaryCategory>
<StartPrice>1.00</StartPrice>
<ConditionID>3000</ConditionID>
<CategoryMappingAllowed>true</CategoryMappingAllowed>
<Country>US</Country>
<Currency>USD</Currency>
<DispatchTimeMax>3</DispatchTimeMax>
<ListingDuration>Days_7</ListingDuration>
<ListingType>Chinese</ListingType>
<PaymentMethods>PayPal</PaymentMethods>
<PayPalEmailAddress>magicalbookseller@yahoo.com</PayPalEmailAddress>
<PictureDetails>
<PictureURL>http://i.ebayimg.sandbox.ebay.com/00/s/MTAwMFg2NjA=/$(KGrHqJHJEsE-js(zPJ)BP)cWCLLSQ~~60_1.JPG?set_id=8800005007</PictureURL>
</PictureDetails>
<PostalCode>95125</PostalCode>
<Quantity>1</Quantity>
<ReturnPolicy>
<ReturnsAcceptedOption>ReturnsAccepted</ReturnsAcceptedOption>
<RefundOption>MoneyBack</RefundOption>
<ReturnsWithinOption>Days_30</ReturnsWithinOption>
<Description>
    This is the first book in the Harry Potter series. In excellent condition!
</Description>
<ShippingCostPaidByOption>Buyer</ShippingCostPaidByOption>
</ReturnPolicy>
<ShippingDetails>
<ShippingType>Flat</ShippingType>
<ShippingServiceOptions>
    <ShippingServicePriority>1</ShippingServicePriority>
    <ShippingService>USPSMedia</ShippingService>
    <ShippingServiceCost>2.50</ShippingServiceCost>
</ShippingServiceOptions>
</ShippingDetails>
<Site>US</Site>
</Item>
<RequesterCredentials>
    <Username>ql.io-test1</Username>
    <Password>ebay</Password>
</RequesterCredentials>
<WarningLevel>High</WarningLevel>
</AddItemRequest>');

insert into trading.PlaceOffer (ErrorLanguage,EndUserIP,ItemID,Offer.Action, Offer.MaxBid, Offer.Quantity) values ("en_US", "192.168.255.255", "{result.ItemID}", "Bid", "20.00","1");
