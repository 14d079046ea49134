package serializers_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/serializers"
)

// clubMember is a model with Django's help_text, validators and a unique
// error message of its own.
type clubMember struct {
	ID       int64  `db:"id" json:"id"`
	Nickname string `db:"nick_name" json:"nick_name" model:"max_length=5,unique"`
	Code     string `db:"code" json:"code" model:"max_length=10,unique"`
}

func (clubMember) Meta() models.Meta {
	lower := models.Validator{Check: func(s string) error {
		if strings.ToLower(s) != s {
			return errors.New("Only lower case.")
		}
		return nil
	}, Pattern: `^[a-z]+\Z`}
	digits := models.Validator{Check: func(s string) error {
		if strings.ContainsAny(s, "0123456789") {
			return errors.New("No digits.")
		}
		return nil
	}}
	return models.Meta{App: "club",
		HelpText:      map[string]string{"nick_name": "What friends call you.", "id": "The member's number."},
		Validators:    map[string][]models.Validator{"nick_name": {lower, digits}},
		ErrorMessages: map[string]map[string]string{"nick_name": {"unique": "A %(model_name)s's %(field_label)s is taken."}}}
}

// A model's Meta.HelpText, Validators and ErrorMessages reach the
// serializer as DRF's ModelSerializer takes help_text, validators and
// error_messages["unique"] from the model field: the help text in
// OPTIONS (read-only fields too) and in the description schemas are made
// of, with the RegexValidator's pattern in Django's \z; every validator's
// message, in order, before the CharField's own; the unique message with
// the model's and the field's verbose names; Django's message for a field
// without one.
func TestModelHelpTextValidatorsMessages(t *testing.T) {
	s := serializers.MustNew[clubMember]()
	info := string(s.FieldInfo())
	for _, want := range []string{
		`"id":{"type":"integer","required":false,"read_only":true,"label":"ID","help_text":"The member's number."}`,
		`"nick_name":{"type":"string","required":true,"read_only":false,"label":"Nick name","help_text":"What friends call you.","max_length":5}`,
		`"code":{"type":"string","required":true,"read_only":false,"label":"Code","max_length":10}`,
	} {
		if !strings.Contains(info, want) {
			t.Errorf("OPTIONS %s\nlacks %s", info, want)
		}
	}
	if f := s.Description().Fields[1]; f.HelpText != "What friends call you." || f.Pattern != `^[a-z]+\z` {
		t.Errorf("description: help text %q, pattern %q", f.HelpText, f.Pattern)
	}
	c := &serializers.Context{Exists: func(column, value string) (bool, error) { return value == "taken", nil }}
	for body, want := range map[string]string{
		`{"nick_name":"Bob1234","code":"x"}`:   `{"nick_name":["Only lower case.","No digits.","Ensure this field has no more than 5 characters."]}`,
		`{"nick_name":"taken","code":"taken"}`: `{"nick_name":["A club member's nick name is taken."],"code":["club member with this code already exists."]}`,
	} {
		var m clubMember
		if got := string(errorJSON(t, s.ValidateNew(decode(t, body), &m, c))); got != want {
			t.Errorf("%s: %s, want %s", body, got, want)
		}
	}
}
