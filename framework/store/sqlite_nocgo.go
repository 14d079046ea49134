//go:build !cgo

package store

import (
	"database/sql/driver"
	"errors"
)

// errNoCgo is Open's answer for an SQLite database in a program built
// without cgo: PostgreSQL-only programs build and run without a C
// compiler, SQLite needs one.
var errNoCgo = errors.New("store: SQLite needs cgo, and this program was built with CGO_ENABLED=0: " +
	"build it with CGO_ENABLED=1 and a C compiler (gcc or clang), or use PostgreSQL (postgres://...)")

// sqliteDriver refuses: SQLite's C library is not in the program.
func sqliteDriver() (driver.Driver, error) { return nil, errNoCgo }

// sqliteError finds no error of SQLite's in a program without it.
func sqliteError(error) (code, extended int, msg string, ok bool) { return 0, 0, "", false }
