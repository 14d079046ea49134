// Package telemetry gives an API OpenTelemetry traces and metrics,
// configured only by OpenTelemetry's standard environment through
// go.opentelemetry.io/contrib/exporters/autoexport:
//
//   - OTEL_TRACES_EXPORTER: "otlp", "console" or "none"; unset is none.
//     Each request is a span named by its method and route pattern ("GET
//     /books/{pk}/", otelhttp with the semantic conventions' attributes),
//     with child spans for the authentication (the scheme that decided,
//     the outcome), permission, throttle and pagination steps
//     (framework.Observer) and for every SQL statement (otelsql);
//   - OTEL_METRICS_EXPORTER: "otlp", "console", "prometheus" (a scrape
//     endpoint on OTEL_EXPORTER_PROMETHEUS_HOST:OTEL_EXPORTER_PROMETHEUS_PORT,
//     localhost:9464 by default) or "none"; unset is none. The request
//     duration by route and status (http.server.request.duration),
//     authentication outcomes by scheme, throttle decisions and the
//     database pool's statistics;
//   - OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME,
//     OTEL_RESOURCE_ATTRIBUTES and the other OTEL_ variables as the
//     OpenTelemetry SDK reads them.
//
// Unlike the SDK's own default (otlp), an unset exporter variable turns
// the signal off: FromEnv then returns a nil *Telemetry, whose methods
// add nothing, so that a service that sets no variable pays nothing.
// The framework does not import this package.
package telemetry

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/XSAM/otelsql"
	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/accesslog"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
)

// ScopeName is the instrumentation scope of the spans and metrics this
// package makes.
const ScopeName = "github.com/go-drf/drf/framework/telemetry"

// Attribute keys of the framework's spans and metrics.
const (
	// attrPolicy names the policies of a step by their Go types.
	attrPolicy = attribute.Key("drf.policy")
	// attrOutcome is a step's outcome (framework.Outcome...).
	attrOutcome = attribute.Key("drf.outcome")
	// attrScheme is the authentication scheme that decided.
	attrScheme = attribute.Key("drf.authentication.scheme")
	// attrPageSize is how many items a page has.
	attrPageSize = attribute.Key("drf.pagination.page_size")
	// attrRequestID is the request ID (accesslog.RequestID).
	attrRequestID = attribute.Key("drf.request_id")
)

// Telemetry is the OpenTelemetry of a service; nil is none.
type Telemetry struct {
	traces  *sdktrace.TracerProvider
	metrics *sdkmetric.MeterProvider
	tracer  trace.Tracer
	// authentications counts authentication outcomes by scheme,
	// throttles throttle decisions.
	authentications, throttles metric.Int64Counter
	propagator                 propagation.TextMapPropagator
}

// FromEnv sets up the traces and metrics OTEL_TRACES_EXPORTER and
// OTEL_METRICS_EXPORTER ask for (see the package's documentation); nil,
// and no error, when they ask for none. It also makes them the global
// providers (otel.SetTracerProvider, otel.SetMeterProvider) with the W3C
// trace context and baggage propagators. Call Shutdown when the service
// has stopped serving, to flush what is buffered.
func FromEnv(ctx context.Context) (*Telemetry, error) {
	wantTraces := enabled("OTEL_TRACES_EXPORTER")
	wantMetrics := enabled("OTEL_METRICS_EXPORTER")
	if !wantTraces && !wantMetrics {
		return nil, nil
	}
	res, err := resource.New(ctx, resource.WithFromEnv(), resource.WithTelemetrySDK(), resource.WithProcessRuntimeName())
	if err != nil {
		return nil, fmt.Errorf("telemetry: resource: %w", err)
	}
	t := &Telemetry{propagator: propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})}
	if wantTraces {
		exp, err := autoexport.NewSpanExporter(ctx)
		if err != nil {
			return nil, fmt.Errorf("telemetry: OTEL_TRACES_EXPORTER: %w", err)
		}
		t.traces = sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
		otel.SetTracerProvider(t.traces)
	}
	if wantMetrics {
		reader, err := autoexport.NewMetricReader(ctx)
		if err != nil {
			_ = t.Shutdown(ctx)
			return nil, fmt.Errorf("telemetry: OTEL_METRICS_EXPORTER: %w", err)
		}
		t.metrics = sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader), sdkmetric.WithResource(res))
		otel.SetMeterProvider(t.metrics)
	}
	otel.SetTextMapPropagator(t.propagator)
	t.tracer = t.tracerProvider().Tracer(ScopeName)
	meter := t.meterProvider().Meter(ScopeName)
	if t.authentications, err = meter.Int64Counter("drf.authentication.outcomes", metric.WithUnit("{request}"),
		metric.WithDescription("Authentication outcomes by the scheme that decided.")); err != nil {
		return nil, err
	}
	if t.throttles, err = meter.Int64Counter("drf.throttle.decisions", metric.WithUnit("{request}"),
		metric.WithDescription("Throttle decisions: allowed or throttled.")); err != nil {
		return nil, err
	}
	return t, nil
}

// enabled reports whether the exporter variable name asks for one.
func enabled(name string) bool {
	v := strings.TrimSpace(os.Getenv(name))
	return v != "" && v != "none"
}

func (t *Telemetry) tracerProvider() trace.TracerProvider {
	if t.traces == nil {
		return tracenoop.NewTracerProvider()
	}
	return t.traces
}

func (t *Telemetry) meterProvider() metric.MeterProvider {
	if t.metrics == nil {
		return metricnoop.NewMeterProvider()
	}
	return t.metrics
}

// Shutdown flushes and stops the exporters within ctx.
func (t *Telemetry) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	var errs []error
	if t.traces != nil {
		errs = append(errs, t.traces.Shutdown(ctx))
	}
	if t.metrics != nil {
		errs = append(errs, t.metrics.Shutdown(ctx))
	}
	return errors.Join(errs...)
}

// Middleware returns next in a span per request and its duration metric
// (otelhttp), the span renamed "METHOD ROUTE" and given http.route once
// the view that answered named its route (accesslog.RequestInfo, which it
// adds when accesslog.New has not), the metric labelled by the route too; the
// health endpoints (/livez, /readyz) are left out. next itself when t is
// nil.
func (t *Telemetry) Middleware(next http.Handler) http.Handler {
	if t == nil {
		return next
	}
	named := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		info := accesslog.RequestInfoFrom(ctx)
		if info == nil {
			info = &accesslog.RequestInfo{}
			r = r.WithContext(accesslog.WithRequestInfo(ctx, info))
		}
		next.ServeHTTP(w, r)
		span := trace.SpanFromContext(ctx)
		if info.ID != "" {
			span.SetAttributes(attrRequestID.String(info.ID))
		}
		if info.Route == "" {
			return
		}
		route := semconv.HTTPRoute(info.Route)
		span.SetName(r.Method + " " + info.Route)
		span.SetAttributes(route)
		if l, ok := otelhttp.LabelerFromContext(ctx); ok {
			l.Add(route)
		}
	})
	return otelhttp.NewHandler(named, "http.server",
		otelhttp.WithTracerProvider(t.tracerProvider()),
		otelhttp.WithMeterProvider(t.meterProvider()),
		otelhttp.WithPropagators(t.propagator),
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method }),
		otelhttp.WithFilter(func(r *http.Request) bool {
			return !strings.HasSuffix(r.URL.Path, "/livez") && !strings.HasSuffix(r.URL.Path, "/readyz")
		}))
}

// Observer returns the framework.Observer that makes the pipeline's
// steps child spans of the request's span and counts authentication
// outcomes and throttle decisions (Settings.Observer); nil when t is nil.
func (t *Telemetry) Observer() framework.Observer {
	if t == nil {
		return nil
	}
	return observer{t}
}

type observer struct{ t *Telemetry }

// Observe records s as a span from s.Start to s.End and counts it.
func (o observer) Observe(r *request.Request, s framework.Step) {
	attrs := make([]attribute.KeyValue, 0, 3)
	attrs = append(attrs, attrPolicy.String(s.Policy), attrOutcome.String(s.Outcome))
	ctx := r.Context()
	switch s.Kind {
	case framework.StepAuthentication:
		scheme := attrScheme.String(s.Policy)
		attrs = append(attrs, scheme)
		o.t.authentications.Add(ctx, 1, metric.WithAttributes(scheme, attrOutcome.String(s.Outcome)))
	case framework.StepThrottles:
		if s.Policy != "" {
			o.t.throttles.Add(ctx, 1, metric.WithAttributes(attrPolicy.String(s.Policy), attrOutcome.String(s.Outcome)))
		}
	case framework.StepPagination:
		attrs = append(attrs, attrPageSize.Int(s.PageSize))
	}
	if o.t.traces == nil {
		return
	}
	_, span := o.t.tracer.Start(ctx, "drf."+s.Kind.String(), trace.WithTimestamp(s.Start),
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	if s.Outcome == framework.OutcomeError {
		span.SetStatus(codes.Error, s.Kind.String()+" failed")
	}
	span.End(trace.WithTimestamp(s.End))
}

// StoreOptions are the store.Options that trace every SQL statement as a
// child span of the request's (otelsql; rows and session resets left
// out), with the statement's text (its parameters never); none when t is
// nil.
func (t *Telemetry) StoreOptions() store.Options {
	if t == nil {
		return store.Options{}
	}
	return store.Options{OpenDB: func(c driver.Connector) *sql.DB {
		system := semconv.DBSystemNamePostgreSQL
		if strings.Contains(strings.ToLower(fmt.Sprintf("%T", c.Driver())), "sqlite") {
			system = semconv.DBSystemNameSQLite
		}
		return otelsql.OpenDB(c, otelsql.WithTracerProvider(t.tracerProvider()),
			otelsql.WithMeterProvider(t.meterProvider()), otelsql.WithAttributes(system),
			otelsql.WithSpanOptions(otelsql.SpanOptions{OmitRows: true, OmitConnResetSession: true}))
	}}
}
