module github.com/go-drf/drf

go 1.26.8

require (
	github.com/go-chi/chi/v5 v5.5.0 // indirect
	github.com/jmoiron/sqlx v1.4.0 // indirect
	github.com/mattn/go-sqlite3 v1.14.53 // indirect
	golang.org/x/crypto v0.58.0 // indirect
)
