package djangohttp

import "net/http"

// ResponseProcessor is a middleware's process_response: it adds the
// middleware's headers to an answer before the header is written.
type ResponseProcessor interface {
	ProcessResponse(h http.Header)
}

// Answer writes an answer through a middleware, running its
// ProcessResponse once, when the header is about to go out: before a
// final status, the body's first bytes or a flush, or, when the handler
// wrote nothing, at Finish.
type Answer struct {
	http.ResponseWriter
	// Processor adds the middleware's headers.
	Processor ResponseProcessor
	done      bool
}

// Reset points the Answer at w for a new request.
func (a *Answer) Reset(w http.ResponseWriter, p ResponseProcessor) {
	a.ResponseWriter, a.Processor, a.done = w, p, false
}

// WriteHeader completes the header before a final status.
func (a *Answer) WriteHeader(code int) {
	if code >= 200 {
		a.Finish()
	}
	a.ResponseWriter.WriteHeader(code)
}

// Write completes the header before the body's first bytes.
func (a *Answer) Write(b []byte) (int, error) {
	a.Finish()
	return a.ResponseWriter.Write(b)
}

// Flush completes the header, then flushes.
func (a *Answer) Flush() {
	a.Finish()
	_ = http.NewResponseController(a.ResponseWriter).Flush()
}

// Unwrap gives http.ResponseController the underlying writer.
func (a *Answer) Unwrap() http.ResponseWriter { return a.ResponseWriter }

// Finish runs ProcessResponse, the first time only.
func (a *Answer) Finish() {
	if !a.done {
		a.done = true
		a.Processor.ProcessResponse(a.Header())
	}
}
