package migrations

// PGName is pgName, for the external tests.
var PGName = pgName

// AutoIndexName is autoIndexName, for the external tests.
var AutoIndexName = autoIndexName
