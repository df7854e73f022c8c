u = require(42)
