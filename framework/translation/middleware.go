package translation

import (
	"net/http"
	"strings"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/internal/formats"
)

// LocaleMiddleware is Django's django.middleware.locale.LocaleMiddleware,
// placed as Django's documentation places it, after SessionMiddleware:
// it chooses each request's language (get_language_from_request), has the
// exception handler answer in it (framework.WithTranslator) and localized
// decimals read and written in its number format, and sets
// the answer's Content-Language, unless already set, and adds
// Accept-Language to its Vary, before the Cookie that the session adds.
// Misconfiguration (a malformed language code) is an error here.
func LocaleMiddleware(c Config) (func(http.Handler) http.Handler, error) {
	l, err := newLocale(c)
	if err != nil {
		return nil, err
	}
	return l.middleware, nil
}

// middleware wraps next with the locale's language choice.
func (l *locale) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		code := l.languageFrom(r)
		t, n := l.translator(code), l.numbers[strings.ToLower(code)]
		if t != nil || n != nil {
			ctx := r.Context()
			if t != nil {
				ctx = framework.WithTranslator(ctx, t)
			}
			if n != nil {
				ctx = formats.WithNumber(ctx, n)
			}
			r = r.WithContext(ctx)
		}
		lw := &localeWriter{ResponseWriter: w, language: toLanguage(code)}
		next.ServeHTTP(lw, r)
		if !lw.wrote { // an empty 200, which the server would send without them
			lw.WriteHeader(http.StatusOK)
		}
	})
}

// localeWriter adds the language headers when the answer's header is
// written.
type localeWriter struct {
	http.ResponseWriter
	language string
	wrote    bool
}

func (w *localeWriter) WriteHeader(status int) {
	if !w.wrote {
		w.wrote = true
		h := w.Header()
		h["Vary"] = []string{patchVary(h.Values("Vary"))}
		if len(h["Content-Language"]) == 0 {
			h["Content-Language"] = []string{w.language}
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *localeWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Flush sends what is buffered, for streamed answers.
func (w *localeWriter) Flush() {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (w *localeWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// patchVary is Django's patch_vary_headers(response, ["Accept-Language"])
// on the Vary lines: the name is added unless there (in any case), "*"
// stays "*"; it goes before Cookie, which Django's SessionMiddleware
// adds after LocaleMiddleware has run.
func patchVary(lines []string) string {
	var names []string
	for _, v := range lines {
		for n := range strings.SplitSeq(v, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
	}
	at := len(names)
	for i, n := range names {
		switch {
		case n == "*":
			return "*"
		case strings.EqualFold(n, "Accept-Language"):
			return strings.Join(names, ", ")
		case strings.EqualFold(n, "Cookie") && at == len(names):
			at = i
		}
	}
	names = append(names[:at], append([]string{"Accept-Language"}, names[at:]...)...)
	return strings.Join(names, ", ")
}

// toLanguage is Django's to_language, the code Content-Language names:
// "pt_BR" and "pt-BR" are "pt-br".
func toLanguage(code string) string {
	if lang, country, ok := strings.Cut(code, "_"); ok {
		return strings.ToLower(lang) + "-" + strings.ToLower(country)
	}
	return strings.ToLower(code)
}
