package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
)

// userWithAvatar is one entry of /users, the same JSON as stream-service's. The fields are declared
// in the order stream-service writes them (alphabetical), and encoding/json writes a struct in
// declaration order: the bodies come out byte-identical without sorting anything at run time.
type userWithAvatar struct {
	Avatar avatar `json:"avatar"`
	ID     int    `json:"id"`
	Login  string `json:"login"`
}

type avatar struct {
	Bytes       int    `json:"bytes"`
	ContentType string `json:"contentType"`
	SHA256      string `json:"sha256"`
	UpstreamURL string `json:"upstreamUrl"`
	URL         string `json:"url"`
}

// usersHandler answers GET /users?limit=1-100&concurrency=1-64 (defaults 30 and 8, as ours): the
// upstream's user page, then each avatar with at most `concurrency` fetches in flight, described
// (content type, size, SHA-256) in upstream order. Any upstream failure answers 502.
func usersHandler(api upstreamAPI) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		query := r.URL.Query()
		limit, okLimit := intParameter(query.Get("limit"), 30, 1, 100)
		concurrency, okConcurrency := intParameter(query.Get("concurrency"), 8, 1, 64)
		if !okLimit || !okConcurrency {
			http.Error(w, "limit must be 1-100, concurrency 1-64", http.StatusBadRequest)
			return
		}
		users, err := usersWithAvatars(api, limit, concurrency)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		var body bytes.Buffer
		encoder := json.NewEncoder(&body)
		encoder.SetEscapeHTML(false) // as ours: URLs keep their '&'
		if err := encoder.Encode(users); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_, _ = w.Write(bytes.TrimSuffix(body.Bytes(), []byte("\n")))
	}
}

func intParameter(text string, fallback, min, max int) (int, bool) {
	if text == "" {
		return fallback, true
	}
	value, err := strconv.Atoi(text)
	return value, err == nil && value >= min && value <= max
}

func usersWithAvatars(api upstreamAPI, limit, concurrency int) ([]userWithAvatar, error) {
	users, err := api.users(limit)
	if err != nil {
		return nil, err
	}
	if len(users) > limit {
		users = users[:limit]
	}
	results := make([]userWithAvatar, len(users))
	errs := make([]error, len(users))
	slots := make(chan struct{}, concurrency) // the semaphore: at most `concurrency` fetches in flight
	var wait sync.WaitGroup
	for index := range users {
		slots <- struct{}{}
		wait.Add(1)
		go func(index int) {
			defer func() { <-slots; wait.Done() }()
			results[index], errs[index] = describe(api, users[index])
		}(index)
	}
	wait.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}

func describe(api upstreamAPI, user upstreamUser) (userWithAvatar, error) {
	body, contentType, err := api.avatar(user.AvatarURL)
	if err != nil {
		return userWithAvatar{}, err
	}
	digest := sha256.Sum256(body)
	return userWithAvatar{
		Avatar: avatar{
			Bytes: len(body), ContentType: contentType, SHA256: hex.EncodeToString(digest[:]),
			UpstreamURL: user.AvatarURL, URL: "/users/" + user.Login + "/avatar",
		},
		ID: user.ID, Login: user.Login,
	}, nil
}
