package orrerygo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// exchange is one HTTP attempt as the SDK sent it (after its retries are split out).
type exchange struct {
	method, path string
	status       int
	substatus    string
	activityID   string
	charge       string
	retryAfterMs string // x-ms-retry-after-ms of the response
	sessionSent  string // x-ms-session-token of the request
	message      string // the error body's message, for statuses >= 400
}

func (e exchange) String() string {
	s := fmt.Sprintf("%s %s -> %d", e.method, e.path, e.status)
	if e.substatus != "" {
		s += " substatus " + e.substatus
	}
	if e.activityID != "" {
		s += " activity " + e.activityID
	}
	if e.message != "" {
		s += fmt.Sprintf(" message %q", e.message)
	}
	return s
}

// recorder is a per-retry pipeline policy that remembers every attempt.
type recorder struct {
	mu        sync.Mutex
	exchanges []exchange
}

func (r *recorder) Do(req *policy.Request) (*http.Response, error) {
	resp, err := req.Next()
	ex := exchange{method: req.Raw().Method, path: req.Raw().URL.Path, sessionSent: req.Raw().Header.Get("x-ms-session-token")}
	if err != nil {
		ex.message = "transport error: " + err.Error()
	}
	if resp != nil {
		ex.status = resp.StatusCode
		ex.substatus = resp.Header.Get("x-ms-substatus")
		ex.activityID = resp.Header.Get("x-ms-activity-id")
		ex.charge = resp.Header.Get("x-ms-request-charge")
		ex.retryAfterMs = resp.Header.Get("x-ms-retry-after-ms")
		if resp.StatusCode >= 400 && resp.Body != nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
			_ = resp.Body.Close()
			resp.Body = io.NopCloser(bytes.NewReader(body))
			ex.message = strings.TrimSpace(string(body))
			if len(ex.message) > 300 {
				ex.message = ex.message[:300] + "..."
			}
		}
	}
	r.mu.Lock()
	r.exchanges = append(r.exchanges, ex)
	r.mu.Unlock()
	return resp, err
}

// mark returns the count so far, for since().
func (r *recorder) mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.exchanges)
}

func (r *recorder) since(n int) []exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n > len(r.exchanges) {
		return nil
	}
	return append([]exchange(nil), r.exchanges[n:]...)
}

// wire describes the exchanges since mark n, for a failure message.
func (r *recorder) wire(n int) string {
	ex := r.since(n)
	if len(ex) > 12 {
		ex = ex[len(ex)-12:]
	}
	var b strings.Builder
	b.WriteString("wire exchange:")
	for _, e := range ex {
		b.WriteString("\n    " + e.String())
	}
	return b.String()
}

// responseError unwraps the SDK's *azcore.ResponseError.
func responseError(err error) (*azcore.ResponseError, bool) {
	var re *azcore.ResponseError
	if errors.As(err, &re) {
		return re, true
	}
	return nil, false
}

// substatusOf reads x-ms-substatus from the error's raw response ("" when absent).
func substatusOf(re *azcore.ResponseError) string {
	if re == nil || re.RawResponse == nil {
		return ""
	}
	return re.RawResponse.Header.Get("x-ms-substatus")
}

// describeErr names status, substatus, activity id and message of an SDK error.
func describeErr(err error) string {
	if err == nil {
		return "no error"
	}
	re, ok := responseError(err)
	if !ok {
		return fmt.Sprintf("non-HTTP error %T: %v", err, err)
	}
	act := ""
	if re.RawResponse != nil {
		act = re.RawResponse.Header.Get("x-ms-activity-id")
	}
	msg := re.Error()
	if len(msg) > 400 {
		msg = msg[:400] + "..."
	}
	return fmt.Sprintf("status %d substatus %q activity %s error code %q: %s", re.StatusCode, substatusOf(re), act, re.ErrorCode, msg)
}
