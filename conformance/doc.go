// Package conformance holds the test that sends one table of requests to the
// Go sample (sample/) and to the DRF reference of the same contract, and
// compares their answers: the sample with its defaults against DRF 3.18 on
// Django 5.2, the sample at DRF 3.14 level against DRF 3.14 on Django 3.2;
// TestCompatibility pins the requests whose answers differ between the two.
// The reference is the Django project in reference/, which the tests start
// at each level (reference/start --drf 3.14 or 3.18) on the packages
// scripts/install-references lays out; DRF_REFERENCE_DIR and
// DRF_REFERENCE_LATEST_DIR name another directory whose start serves the
// 3.14 or the 3.18 oracle. It has no code of its own: run it with
// `go test ./conformance`.
package conformance
