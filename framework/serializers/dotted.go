package serializers

import (
	"strconv"
	"strings"
)

// bindDotted makes a dotted source through a foreign key (drf:"source=
// user.username") writable when it is declared so, tagged required,
// write_only or read_only=false, as DRF's declared
// CharField(source='user.username') is: its validated value is set in
// the item, for the view's Perform hook to save, since ModelSerializer's
// default create() and update() refuse it (WritableNested). It is then
// required unless tagged required=false, and described by its own type
// (OPTIONS' "string"), not as a ReadOnlyField. Untagged, it stays
// read-only.
func (f *field) bindDotted() {
	tag := f.sf.Tag.Get("drf")
	ro, set := tagValue(tag, "read_only")
	off, err := strconv.ParseBool(ro)
	if !f.required && !f.writeOnly && !(set && err == nil && !off) {
		return
	}
	f.readOnly = false
	if _, typed := tagValue(tag, "type"); !typed && f.typeName == "field" {
		f.typeName = ""
	}
	if _, set := tagValue(tag, "required"); !set {
		f.required = true
	}
}

// writableDotted reports a dotted source declared writable (bindDotted).
func (f *field) writableDotted() bool {
	return !f.readOnly && f.sf != nil && f.sf.Column == "" && f.rel == nil && f.compute == nil && strings.Contains(f.source(), ".")
}
