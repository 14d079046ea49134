package migrations

// PGName is pgName, for the external tests.
var PGName = pgName
