package throttling

// ParseRate is parseRate, for the tests of DRF's rate notation.
var ParseRate = parseRate
