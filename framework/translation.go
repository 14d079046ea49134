package framework

import (
	"context"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// Translator gives a message in the language chosen for a request:
// Django's gettext under the activated language. framework/translation's
// LocaleMiddleware installs one per request with WithTranslator.
type Translator interface {
	// Translate returns msg, the English text of a DRF or Django message
	// with its arguments filled in, in the translator's language; text
	// it does not know comes back unchanged.
	Translate(msg string) string
}

type translatorKey struct{}

// WithTranslator returns ctx with t as the translator of the error
// answers of the request it belongs to.
func WithTranslator(ctx context.Context, t Translator) context.Context {
	return context.WithValue(ctx, translatorKey{}, t)
}

// TranslatorFrom returns the translator of ctx, nil when none.
func TranslatorFrom(ctx context.Context) Translator {
	t, _ := ctx.Value(translatorKey{}).(Translator)
	return t
}

// translateDetail is the detail of an error answer in the request's
// language: itself when no translator is installed.
func translateDetail(r *request.Request, detail any) any {
	t := TranslatorFrom(r.Context())
	if t == nil {
		return detail
	}
	return TranslateDetail(t, detail)
}

// TranslateDetail returns a copy of an APIException's detail with each
// message translated by t: a string, a list of strings or
// exceptions.ValidationErrors, at any depth; other values as they are.
func TranslateDetail(t Translator, detail any) any {
	switch d := detail.(type) {
	case string:
		return t.Translate(d)
	case []string:
		return translateAll(t, d)
	case exceptions.ValidationErrors:
		return translateErrors(t, d)
	case []exceptions.ValidationErrors:
		out := make([]exceptions.ValidationErrors, len(d))
		for i, e := range d {
			out[i] = translateErrors(t, e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(d))
		for k, v := range d {
			out[k] = TranslateDetail(t, v)
		}
		return out
	case []any:
		out := make([]any, len(d))
		for i, v := range d {
			out[i] = TranslateDetail(t, v)
		}
		return out
	}
	return detail
}

func translateAll(t Translator, msgs []string) []string {
	if msgs == nil {
		return nil
	}
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = t.Translate(m)
	}
	return out
}

func translateErrors(t Translator, errs exceptions.ValidationErrors) exceptions.ValidationErrors {
	if errs == nil {
		return nil
	}
	out := make(exceptions.ValidationErrors, len(errs))
	for i, f := range errs {
		out[i] = exceptions.FieldError{Field: f.Field, Messages: translateAll(t, f.Messages), Items: translateErrors(t, f.Items)}
	}
	return out
}
