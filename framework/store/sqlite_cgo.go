//go:build cgo

package store

import (
	"database/sql/driver"
	"errors"

	"github.com/mattn/go-sqlite3"
)

// sqliteDriver is go-sqlite3's driver, SQLite's C library built through
// cgo.
func sqliteDriver() (driver.Driver, error) { return &sqlite3.SQLiteDriver{}, nil }

// sqliteError returns the result code and the extended result code of an
// error of SQLite's, with its message; ok is false for any other error.
func sqliteError(err error) (code, extended int, msg string, ok bool) {
	var e sqlite3.Error
	if !errors.As(err, &e) {
		return 0, 0, "", false
	}
	return int(e.Code), int(e.ExtendedCode), e.Error(), true
}
