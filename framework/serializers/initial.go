package serializers

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/internal/structs"
)

// bindInitial reads the drf tag's initial=TEXT (DRF's initial=) as the
// field reads its input, None being null, into the JSON a new item's
// forms start from: the browsable page's raw data and HTML form (DRF's
// data of an unbound serializer, each writable field's get_initial()).
// It is a value of one string, number or boolean, as default= is; the
// field's input and output are unchanged.
func (f *field) bindInitial() error {
	text := f.more.initial
	if text == nil {
		return nil
	}
	if f.container != nil || f.rel != nil || f.nested != nil || f.file != nil || f.compute != nil {
		return fmt.Errorf("an initial needs a field of one string, number or boolean")
	}
	var raw any = *text
	if *text == "None" {
		raw = nil
	}
	v, msgs := f.toInternal(raw, compat.Current, formatsOf(nil))
	if len(msgs) > 0 {
		return fmt.Errorf("initial %q: %s", *text, strings.Join(msgs, " "))
	}
	var b []byte
	switch {
	case v.Null:
		b = append(b, "null"...)
	case v.Kind == structs.String:
		b = appendString(b, v.S)
	case v.Kind == structs.Int:
		b = strconv.AppendInt(b, v.I, 10)
	case v.Kind == structs.Uint:
		b = strconv.AppendUint(b, v.U, 10)
	case v.Kind == structs.Float:
		b = structs.AppendPythonFloat(b, v.F)
	case v.Kind == structs.Bool:
		b = strconv.AppendBool(b, v.B)
	default:
		return fmt.Errorf("an initial needs a field of one string, number or boolean")
	}
	f.more.initialJSON = string(b)
	return nil
}
