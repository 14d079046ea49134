// Package scaleout holds the tests of the sample deployed as several
// instances: `manage runserver` processes on one PostgreSQL database and
// one Redis, all started by the tests (internal/testservers). It has no
// code of its own: run it with `go test ./scaleout`.
package scaleout
