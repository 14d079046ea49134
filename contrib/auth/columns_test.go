package auth_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
)

// TestScanDestFollowsColumns: ScanDest gives, in Columns' order, the field
// whose db tag names each column, and every column of User is there.
func TestScanDestFollowsColumns(t *testing.T) {
	var u auth.User
	cols := strings.Split(auth.Columns("u"), ", ")
	dest := u.ScanDest()
	if len(cols) != len(dest) {
		t.Fatalf("%d columns, %d destinations", len(cols), len(dest))
	}
	v := reflect.ValueOf(&u).Elem()
	tagged := 0
	for i := range v.NumField() {
		tag := v.Type().Field(i).Tag.Get("db")
		if tag == "" || tag == "-" {
			continue
		}
		tagged++
		j := -1
		for k, c := range cols {
			if c == `u."`+tag+`"` {
				j = k
			}
		}
		if j < 0 {
			t.Errorf("column %q is not listed", tag)
			continue
		}
		if reflect.ValueOf(dest[j]).Pointer() != v.Field(i).Addr().Pointer() {
			t.Errorf("column %d (%s) is scanned into another field than %s", j, cols[j], v.Type().Field(i).Name)
		}
	}
	if tagged != len(cols) {
		t.Errorf("%d tagged fields, %d columns", tagged, len(cols))
	}
	if got := auth.Columns(""); !strings.HasPrefix(got, `"id", "password", `) {
		t.Errorf("Columns(\"\") = %s", got)
	}
}
