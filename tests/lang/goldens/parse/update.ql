update ebay.trading.ReviseItem with "{changes}" timeout 100
