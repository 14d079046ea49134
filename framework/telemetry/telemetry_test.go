package telemetry_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/go-drf/drf/framework/telemetry"
)

type handler struct{}

func (*handler) ServeHTTP(http.ResponseWriter, *http.Request) {}

// TestOffWhenUnset: with no exporter asked for (unset or "none"), FromEnv
// sets nothing up, and its nil Telemetry adds nothing: the handler as
// given, no observer, the store's own pool.
func TestOffWhenUnset(t *testing.T) {
	for _, v := range []string{"", "none"} {
		t.Setenv("OTEL_TRACES_EXPORTER", v)
		t.Setenv("OTEL_METRICS_EXPORTER", v)
		tel, err := telemetry.FromEnv(context.Background())
		if tel != nil || err != nil {
			t.Fatalf("%q: %v %v", v, tel, err)
		}
		h := &handler{}
		if got, ok := tel.Middleware(h).(*handler); !ok || got != h {
			t.Errorf("%q: the handler is wrapped", v)
		}
		if tel.Observer() != nil || tel.StoreOptions().OpenDB != nil || tel.ObservePool(nil) != nil || tel.Shutdown(context.Background()) != nil {
			t.Errorf("%q: a nil Telemetry adds something", v)
		}
	}
}

// TestUnknownExporterIsAnError: an exporter autoexport does not know
// stops the setup with an error naming the variable.
func TestUnknownExporterIsAnError(t *testing.T) {
	t.Setenv("OTEL_TRACES_EXPORTER", "carrier-pigeon")
	t.Setenv("OTEL_METRICS_EXPORTER", "")
	if _, err := telemetry.FromEnv(context.Background()); err == nil {
		t.Fatal("no error")
	} else if want := "telemetry: OTEL_TRACES_EXPORTER: "; len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
		t.Errorf("error %q", err)
	}
}
