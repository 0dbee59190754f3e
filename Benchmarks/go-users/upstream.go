package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// upstreamAPI makes the two upstream calls of /users through one shared client.
type upstreamAPI struct {
	client  *http.Client
	baseURL string
}

// upstreamUser is one entry of the upstream's /users page: the fields /users uses.
type upstreamUser struct {
	Login     string `json:"login"`
	ID        int    `json:"id"`
	AvatarURL string `json:"avatar_url"`
}

// maxBody bounds one upstream body (avatars are a few KB): 8 MiB, as the Hummingbird peer.
const maxBody = 8 << 20

func newUpstreamAPI(baseURL string, asksGzip bool) upstreamAPI {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	// 64 connections to the upstream, as ours and the Hummingbird peer: the benchmark keeps
	// 32 requests × 16 avatar fetches in flight. The idle limit follows: Go's default of 2 idle
	// connections per host would close 62 of them after every burst and dial them again.
	transport.MaxConnsPerHost = 64
	transport.MaxIdleConnsPerHost = 64
	transport.IdleConnTimeout = 60 * time.Second
	// Go asks for gzip and inflates it transparently unless told not to.
	transport.DisableCompression = !asksGzip
	// Over TLS the clone of DefaultTransport offers h2 by ALPN (ForceAttemptHTTP2, as
	// DefaultTransport sets it: a Transport with custom dial or TLS settings would otherwise
	// drop to HTTP/1.1), so an h2 upstream gets one multiplexed connection per origin.
	transport.ForceAttemptHTTP2 = true
	return upstreamAPI{client: &http.Client{Transport: transport, Timeout: 5 * time.Second}, baseURL: baseURL}
}

func (api upstreamAPI) users(limit int) ([]upstreamUser, error) {
	body, _, err := api.get(fmt.Sprintf("%s/users?since=0&per_page=%d", api.baseURL, limit))
	if err != nil {
		return nil, err
	}
	var users []upstreamUser
	if err := json.Unmarshal(body, &users); err != nil {
		return nil, fmt.Errorf("upstream user list: %w", err)
	}
	return users, nil
}

func (api upstreamAPI) avatar(url string) (body []byte, contentType string, err error) {
	body, contentType, err = api.get(url)
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	return body, contentType, err
}

func (api upstreamAPI) get(url string) ([]byte, string, error) {
	request, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, "", err
	}
	request.Header.Set("Accept", "application/vnd.github+json")
	request.Header.Set("User-Agent", "go-users")
	response, err := api.client.Do(request)
	if err != nil {
		return nil, "", err
	}
	defer response.Body.Close()
	if response.StatusCode < 200 || response.StatusCode > 299 {
		_, _ = io.Copy(io.Discard, response.Body) // so the connection goes back to the pool
		return nil, "", fmt.Errorf("upstream answered %d for %s", response.StatusCode, url)
	}
	body, err := io.ReadAll(io.LimitReader(response.Body, maxBody+1))
	if err != nil {
		return nil, "", err
	}
	if len(body) > maxBody {
		return nil, "", fmt.Errorf("upstream body over %d bytes for %s", maxBody, url)
	}
	return body, response.Header.Get("Content-Type"), nil
}
