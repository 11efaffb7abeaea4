package classes

import (
	"fmt"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// postingDefaultTags and postingDefaultMentions are post_tweet's default
// lists, told apart from a list the caller passed. Python evaluates a
// default once, so in BFCL every tweet posted without tags (mentions)
// holds one list of the whole process, and mention() into such a tweet
// extends it for all of them, in every later entry too. The port gives
// each such tweet a list of its own (postingPost): results then depend on
// the entry alone, and sessions may run side by side. It differs from
// BFCL only after a mention() into a tweet posted without mentions, which
// no gold call and no call of the real runs makes.
var postingDefaultTags, postingDefaultMentions = pyval.NewList(), pyval.NewList()

// postingOwn is a default list replaced by an empty one of the tweet's own.
func postingOwn(v, def pyval.Value) pyval.Value {
	if l, ok := v.(*pyval.List); ok && l == def {
		return pyval.NewList()
	}
	return v
}

// TwitterAPI is BFCL's posting_api.py: tweets, retweets, comments and a
// following list behind a username and password.
func init() {
	Register(&Class{
		Name: "TwitterAPI",
		Init: func(self *Instance) {
			self.Set("_api_description", "This tool belongs to the TwitterAPI, which provides core functionality for posting tweets, retweeting, commenting, and following users on Twitter.")
		},
		Load: postingLoad,
		Methods: map[string]*Method{
			"authenticate_twitter":     {Params: []Param{{Name: "username"}, {Name: "password"}}, Body: postingAuthenticate},
			"posting_get_login_status": {Body: postingLoginStatus},
			"post_tweet": {
				Params: []Param{{Name: "content"}, {Name: "tags", Default: postingDefaultTags, HasDefault: true}, {Name: "mentions", Default: postingDefaultMentions, HasDefault: true}},
				Body:   postingPost,
			},
			"retweet":            {Params: []Param{{Name: "tweet_id"}}, Body: postingRetweet},
			"comment":            {Params: []Param{{Name: "tweet_id"}, {Name: "comment_content"}}, Body: postingComment},
			"mention":            {Params: []Param{{Name: "tweet_id"}, {Name: "mentioned_usernames"}}, Body: postingMention},
			"follow_user":        {Params: []Param{{Name: "username_to_follow"}}, Body: postingFollow},
			"list_all_following": {Body: postingListFollowing},
			"unfollow_user":      {Params: []Param{{Name: "username_to_unfollow"}}, Body: postingUnfollow},
			"get_tweet":          {Params: []Param{{Name: "tweet_id"}}, Body: postingGetTweet},
			"get_user_tweets":    {Params: []Param{{Name: "username"}}, Body: postingUserTweets},
			"search_tweets":      {Params: []Param{{Name: "keyword"}}, Body: postingSearch},
			"get_tweet_comments": {Params: []Param{{Name: "tweet_id"}}, Body: postingTweetComments},
			"get_user_stats":     {Params: []Param{{Name: "username"}}, Body: postingUserStats},
		},
	})
}

func postingLoad(self *Instance, scenario *pyval.Dict) error {
	self.Set("username", msgGet(scenario, "username", "john"))
	self.Set("password", msgGet(scenario, "password", "john123"))
	self.Set("authenticated", msgGet(scenario, "authenticated", false))
	// The tweets' keys become ints (a JSON scenario holds "0"); the
	// comments' keys stay as loaded.
	loaded := msgGet(scenario, "tweets", pyval.NewDict())
	self.Set("tweets", loaded)
	d, ok := loaded.(*pyval.Dict)
	if !ok {
		return pyval.AttributeError(loaded, "items")
	}
	tweets := pyval.NewDict()
	for _, it := range d.Items() {
		k, err := pyval.ToInt(it.Key)
		if err != nil {
			return err
		}
		if err := tweets.SetItem(k, it.Value); err != nil {
			return err
		}
	}
	self.Set("tweets", tweets)
	self.Set("comments", msgGet(scenario, "comments", pyval.NewDict()))
	self.Set("retweets", msgGet(scenario, "retweets", pyval.NewDict()))
	self.Set("following_list", msgGet(scenario, "following_list", pyval.NewList("alice", "bob")))
	self.Set("tweet_counter", msgGet(scenario, "tweet_counter", int64(0)))
	return nil
}

func postingAuthenticate(self *Instance, args []pyval.Value) (pyval.Value, error) {
	username, _ := self.Get("username")
	password, _ := self.Get("password")
	if pyval.Equal(args[0], username) && pyval.Equal(args[1], password) {
		self.Set("authenticated", true)
		return pyval.DictOf(pyval.Item{Key: "authentication_status", Value: true}), nil
	}
	return pyval.DictOf(pyval.Item{Key: "authentication_status", Value: false}), nil
}

func postingLoginStatus(self *Instance, _ []pyval.Value) (pyval.Value, error) {
	a, _ := self.Get("authenticated")
	return pyval.DictOf(pyval.Item{Key: "login_status", Value: pyval.Truth(a)}), nil
}

// postingNotAuthenticated is the error of an action that needs a login,
// or nil when the user is authenticated.
func postingNotAuthenticated(self *Instance, action string) *pyval.Dict {
	if a, _ := self.Get("authenticated"); pyval.Truth(a) {
		return nil
	}
	return msgError("User not authenticated. Please authenticate before " + action + ".")
}

// postingTweets is self.tweets (a dict once loaded).
func postingTweets(self *Instance) pyval.Value {
	t, _ := self.Get("tweets")
	return t
}

// postingTweetValues is self.tweets.values().
func postingTweetValues(self *Instance) ([]pyval.Value, error) {
	t := postingTweets(self)
	d, ok := t.(*pyval.Dict)
	if !ok {
		return nil, pyval.AttributeError(t, "values")
	}
	return d.Values(), nil
}

// postingNotFound is {"error": "Tweet with ID … not found."} when
// tweet_id is not a key of self.tweets, else nil.
func postingNotFound(self *Instance, tweetID pyval.Value) (*pyval.Dict, error) {
	in, err := pyval.In(tweetID, postingTweets(self))
	if err != nil || in {
		return nil, err
	}
	return msgError(fmt.Sprintf("Tweet with ID %s not found.", pyval.Str(tweetID))), nil
}

func postingPost(self *Instance, args []pyval.Value) (pyval.Value, error) {
	if e := postingNotAuthenticated(self, "posting"); e != nil {
		return e, nil
	}
	counter, _ := self.Get("tweet_counter")
	username, _ := self.Get("username")
	tweet := pyval.DictOf(
		pyval.Item{Key: "id", Value: counter},
		pyval.Item{Key: "username", Value: username},
		pyval.Item{Key: "content", Value: args[0]},
		pyval.Item{Key: "tags", Value: postingOwn(args[1], postingDefaultTags)},
		pyval.Item{Key: "mentions", Value: postingOwn(args[2], postingDefaultMentions)},
	)
	if err := pyval.SetItem(postingTweets(self), counter, tweet); err != nil {
		return nil, err
	}
	if err := msgIncrement(self, "tweet_counter"); err != nil {
		return nil, err
	}
	return tweet, nil
}

func postingRetweet(self *Instance, args []pyval.Value) (pyval.Value, error) {
	tweetID := args[0]
	if e := postingNotAuthenticated(self, "retweeting"); e != nil {
		return e, nil
	}
	if e, err := postingNotFound(self, tweetID); e != nil || err != nil {
		return e, err
	}
	retweets, _ := self.Get("retweets")
	username, _ := self.Get("username")
	in, err := pyval.In(username, retweets)
	if err != nil {
		return nil, err
	}
	if !in {
		if err := pyval.SetItem(retweets, username, pyval.NewList()); err != nil {
			return nil, err
		}
	}
	mine, err := pyval.GetItem(retweets, username)
	if err != nil {
		return nil, err
	}
	if in, err := pyval.In(tweetID, mine); err != nil {
		return nil, err
	} else if in {
		return pyval.DictOf(pyval.Item{Key: "retweet_status", Value: "Already retweeted"}), nil
	}
	if err := msgAppend(mine, tweetID); err != nil {
		return nil, err
	}
	return pyval.DictOf(pyval.Item{Key: "retweet_status", Value: "Successfully retweeted"}), nil
}

func postingComment(self *Instance, args []pyval.Value) (pyval.Value, error) {
	tweetID := args[0]
	if e := postingNotAuthenticated(self, "commenting"); e != nil {
		return e, nil
	}
	if e, err := postingNotFound(self, tweetID); e != nil || err != nil {
		return e, err
	}
	comments, _ := self.Get("comments")
	in, err := pyval.In(tweetID, comments)
	if err != nil {
		return nil, err
	}
	if !in {
		if err := pyval.SetItem(comments, tweetID, pyval.NewList()); err != nil {
			return nil, err
		}
	}
	list, err := pyval.GetItem(comments, tweetID)
	if err != nil {
		return nil, err
	}
	username, _ := self.Get("username")
	if err := msgAppend(list, pyval.DictOf(pyval.Item{Key: "username", Value: username}, pyval.Item{Key: "content", Value: args[1]})); err != nil {
		return nil, err
	}
	return pyval.DictOf(pyval.Item{Key: "comment_status", Value: "Comment added successfully"}), nil
}

func postingMention(self *Instance, args []pyval.Value) (pyval.Value, error) {
	tweetID := args[0]
	if e, err := postingNotFound(self, tweetID); e != nil || err != nil {
		return e, err
	}
	tweet, err := pyval.GetItem(postingTweets(self), tweetID)
	if err != nil {
		return nil, err
	}
	mentions, err := pyval.GetItem(tweet, "mentions")
	if err != nil {
		return nil, err
	}
	l, ok := mentions.(*pyval.List)
	if !ok {
		return nil, pyval.AttributeError(mentions, "extend")
	}
	if err := l.Extend(args[1]); err != nil {
		return nil, err
	}
	return pyval.DictOf(pyval.Item{Key: "mention_status", Value: "Users mentioned successfully"}), nil
}

func postingFollow(self *Instance, args []pyval.Value) (pyval.Value, error) {
	if e := postingNotAuthenticated(self, "following"); e != nil {
		return e, nil
	}
	following, _ := self.Get("following_list")
	in, err := pyval.In(args[0], following)
	if err != nil {
		return nil, err
	}
	if in {
		return pyval.DictOf(pyval.Item{Key: "follow_status", Value: false}), nil
	}
	if err := msgAppend(following, args[0]); err != nil {
		return nil, err
	}
	return pyval.DictOf(pyval.Item{Key: "follow_status", Value: true}), nil
}

func postingListFollowing(self *Instance, _ []pyval.Value) (pyval.Value, error) {
	if e := postingNotAuthenticated(self, "listing following"); e != nil {
		return e, nil
	}
	following, _ := self.Get("following_list")
	return pyval.DictOf(pyval.Item{Key: "following_list", Value: following}), nil
}

func postingUnfollow(self *Instance, args []pyval.Value) (pyval.Value, error) {
	if e := postingNotAuthenticated(self, "unfollowing"); e != nil {
		return e, nil
	}
	following, _ := self.Get("following_list")
	in, err := pyval.In(args[0], following)
	if err != nil {
		return nil, err
	}
	if !in {
		return pyval.DictOf(pyval.Item{Key: "unfollow_status", Value: false}), nil
	}
	l, ok := following.(*pyval.List)
	if !ok {
		return nil, pyval.AttributeError(following, "remove")
	}
	if err := l.Remove(args[0]); err != nil {
		return nil, err
	}
	return pyval.DictOf(pyval.Item{Key: "unfollow_status", Value: true}), nil
}

func postingGetTweet(self *Instance, args []pyval.Value) (pyval.Value, error) {
	if e, err := postingNotFound(self, args[0]); e != nil || err != nil {
		return e, err
	}
	return pyval.GetItem(postingTweets(self), args[0])
}

// postingByUser is [tweet for tweet in self.tweets.values() if
// tweet["username"] == username].
func postingByUser(self *Instance, username pyval.Value) ([]pyval.Value, error) {
	tweets, err := postingTweetValues(self)
	if err != nil {
		return nil, err
	}
	var out []pyval.Value
	for _, t := range tweets {
		u, err := pyval.GetItem(t, "username")
		if err != nil {
			return nil, err
		}
		if pyval.Equal(u, username) {
			out = append(out, t)
		}
	}
	return out, nil
}

func postingUserTweets(self *Instance, args []pyval.Value) (pyval.Value, error) {
	out, err := postingByUser(self, args[0])
	if err != nil {
		return nil, err
	}
	return pyval.NewList(out...), nil
}

func postingSearch(self *Instance, args []pyval.Value) (pyval.Value, error) {
	tweets, err := postingTweetValues(self)
	if err != nil {
		return nil, err
	}
	var out []pyval.Value
	for _, t := range tweets {
		match, err := postingMatches(args[0], t)
		if err != nil {
			return nil, err
		}
		if match {
			out = append(out, t)
		}
	}
	return pyval.NewList(out...), nil
}

// postingMatches is keyword.lower() in tweet["content"].lower() or
// keyword.lower() in [tag.lower() for tag in tweet["tags"]], evaluated in
// Python's order.
func postingMatches(keyword, tweet pyval.Value) (bool, error) {
	kw, err := msgLower(keyword)
	if err != nil {
		return false, err
	}
	content, err := pyval.GetItem(tweet, "content")
	if err != nil {
		return false, err
	}
	c, err := msgLower(content)
	if err != nil {
		return false, err
	}
	if in, _ := pyval.In(kw, c); in {
		return true, nil
	}
	if kw, err = msgLower(keyword); err != nil {
		return false, err
	}
	tags, err := pyval.GetItem(tweet, "tags")
	if err != nil {
		return false, err
	}
	items, err := pyval.Iter(tags)
	if err != nil {
		return false, err
	}
	lowered := make([]pyval.Value, len(items))
	for i, tag := range items {
		if lowered[i], err = msgLower(tag); err != nil {
			return false, err
		}
	}
	return pyval.In(kw, pyval.NewList(lowered...))
}

func postingTweetComments(self *Instance, args []pyval.Value) (pyval.Value, error) {
	if e, err := postingNotFound(self, args[0]); e != nil || err != nil {
		return e, err
	}
	comments, _ := self.Get("comments")
	return msgDictGet(comments, args[0], pyval.NewList())
}

func postingUserStats(self *Instance, args []pyval.Value) (pyval.Value, error) {
	username := args[0]
	tweets, err := postingByUser(self, username)
	if err != nil {
		return nil, err
	}
	following := int64(0)
	if me, _ := self.Get("username"); pyval.Equal(username, me) {
		l, _ := self.Get("following_list")
		n, err := pyval.Len(l)
		if err != nil {
			return nil, err
		}
		following = int64(n)
	}
	retweets, _ := self.Get("retweets")
	mine, err := msgDictGet(retweets, username, pyval.NewList())
	if err != nil {
		return nil, err
	}
	n, err := pyval.Len(mine)
	if err != nil {
		return nil, err
	}
	return pyval.DictOf(
		pyval.Item{Key: "tweet_count", Value: int64(len(tweets))},
		pyval.Item{Key: "following_count", Value: following},
		pyval.Item{Key: "retweet_count", Value: int64(n)},
	), nil
}
