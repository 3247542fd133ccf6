import Foundation

/// The forge kinds beyond plain branches, emulated with a `pre-receive` and a `post-receive` hook on the bare
/// repository (``serve(_:in:)``): every push is recorded as the forge received it (``received(in:)``: each ref with its
/// push options), and what a real forge makes of a proposal is made — an AGit pull request `refs/pull/<n>/head`
/// (Gitea, Forgejo), a Gerrit change `refs/changes/<nn>/<n>/<patch set>` (which needs a `Change-Id` and refuses a
/// patch set it has as "no new changes"), a GitLab merge request `refs/merge-requests/<n>/head` for a branch pushed
/// with `merge_request.create` — and its address is printed in the answer to the push
/// (`https://forge.invalid/<repository>/pulls/<n>`, `…/changes/<n>`, `…/merge_requests/<n>`). No `refs/for/…` ref is
/// left behind: a real forge never creates one.
extension EmulatedForge {
    /// The forge kinds the emulation serves.
    public enum Kind: String, Sendable, CaseIterable {
        case branch, agit, gitlab, gerrit
    }

    /// One ref update as the forge received it.
    public struct Received: Sendable, Equatable {
        /// The ref as pushed (`refs/for/t2`, `refs/for/t2%topic=x`, `refs/heads/…`).
        public var ref: String
        public var old: String
        public var new: String
        /// The push options sent with it (`topic=x`, `merge_request.create`).
        public var options: [String]
    }

    /// One review the forge opened: its number, its ref, the branch it targets and its topic (or, for GitLab, its
    /// source branch), and the commit it shows.
    public struct Review: Sendable, Equatable {
        public var number: Int
        public var ref: String
        public var target: String
        public var topic: String
        public var commit: String
    }

    /// The files the hooks keep in the bare repository.
    static let kindFile = "forge-kind"
    static let receivedFile = "forge-received"
    static let reviewsFile = "forge-reviews"
    /// The numbers of the pull requests the merge button landed (``land(_:into:method:in:keepingMessages:)`` of a
    /// `refs/pull/<n>/head`), one a line.
    static let mergedFile = "forge-merged"

    /// The `pre-receive` hook: records every update with its push options, refuses protected branches (as
    /// ``preReceiveHook``), for AGit an update of a pull request that is no fast-forward of its head unless pushed with
    /// `-o force-push=true` (as Gitea), and for Gerrit a commit without `Change-Id` or one that is a patch set already.
    public static let recordingPreReceiveHook = """
        #!/bin/sh
        dir="${GIT_DIR:-.}"
        list="$dir/\(protectedList)"
        kind=$(cat "$dir/\(kindFile)" 2>/dev/null || echo branch)
        options=""
        i=0
        while [ "$i" -lt "${GIT_PUSH_OPTION_COUNT:-0}" ]; do
            eval "option=\\${GIT_PUSH_OPTION_$i}"
            options="$options$(printf '\\t')$option"
            i=$((i + 1))
        done
        status=0
        while read -r old new ref; do
            printf '%s\\t%s\\t%s%s\\n' "$ref" "$old" "$new" "$options" >> "$dir/\(receivedFile)"
            case "$ref" in
            refs/heads/*)
                if [ -f "$list" ] && grep -qxF -- "${ref#refs/heads/}" "$list"; then
                    echo "error: \(refusal) $ref: changes go through a review" >&2
                    status=1
                fi
                ;;
            refs/for/*)
                if [ "$kind" = agit ]; then
                    # Gitea updates a pull request only by a fast-forward of its head, or with -o force-push.
                    topic=""
                    force=""
                    i=0
                    while [ "$i" -lt "${GIT_PUSH_OPTION_COUNT:-0}" ]; do
                        eval "option=\\${GIT_PUSH_OPTION_$i}"
                        case "$option" in
                        topic=*) topic="${option#topic=}" ;;
                        force-push | force-push=true) force=yes ;;
                        esac
                        i=$((i + 1))
                    done
                    # Only an open pull request: a merged one is no longer updated (a new one is opened).
                    open=$(awk -F '\\t' -v t="${ref#refs/for/}" -v p="$topic" \\
                        '$3 == t && $4 == p { c = $1 " " $5 } END { print c }' "$dir/\(reviewsFile)" 2>/dev/null)
                    head="${open#* }"
                    if [ -n "$open" ] && grep -qxF -- "${open%% *}" "$dir/\(mergedFile)" 2>/dev/null; then
                        head=""
                    fi
                    if [ -n "$head" ] && [ -z "$force" ] && ! git merge-base --is-ancestor "$head" "$new"; then
                        echo "error: not a fast-forward of the pull request's head $head: use -o force-push=true" >&2
                        status=1
                    fi
                fi
                if [ "$kind" = gerrit ]; then
                    change=$(git log -1 --format='%(trailers:key=Change-Id,valueonly)' "$new")
                    if [ -z "$change" ]; then
                        echo "error: missing Change-Id in commit message footer" >&2
                        status=1
                    elif grep -q "$(printf '\\t')$new\\$" "$dir/\(reviewsFile)" 2>/dev/null; then
                        echo "error: no new changes" >&2
                        status=1
                    fi
                fi
                ;;
            esac
        done
        exit $status

        """

    /// The `post-receive` hook: turns what was received into the forge's reviews (see the type's description).
    public static let reviewPostReceiveHook = """
        #!/bin/sh
        dir="${GIT_DIR:-.}"
        kind=$(cat "$dir/\(kindFile)" 2>/dev/null || echo branch)
        reviews="$dir/\(reviewsFile)"
        touch "$reviews"
        # The review's address, as forges print it in their answer: https://forge.invalid/<repository>/<kind>/<n>.
        name=$(basename "$(cd "$dir" && pwd)" .git)
        topic=""
        target=""
        create=""
        i=0
        while [ "$i" -lt "${GIT_PUSH_OPTION_COUNT:-0}" ]; do
            eval "option=\\${GIT_PUSH_OPTION_$i}"
            case "$option" in
            topic=*) topic="${option#topic=}" ;;
            merge_request.create) create=yes ;;
            merge_request.target=*) target="${option#merge_request.target=}" ;;
            esac
            i=$((i + 1))
        done
        # A review is a line: number, ref, target, topic (GitLab: source branch), commit.
        find() { awk -F '\\t' -v t="$1" -v p="$2" '$3 == t && $4 == p { n = $1 } END { print n }' "$reviews"; }
        record() {
            grep -v "^$1$(printf '\\t')" "$reviews" > "$reviews.new"
            printf '%s\\t%s\\t%s\\t%s\\t%s\\n' "$1" "$2" "$3" "$4" "$5" >> "$reviews.new"
            mv "$reviews.new" "$reviews"
        }
        # A review of a refs/for push opened or updated: review $1 at ref $2 into $3 with topic $4, holding the
        # pushed commit; no refs/for ref left behind; the answer names it ($5) and its address (kind $6).
        opened() {
            git update-ref "$2" "$new"
            git update-ref -d "$ref"
            record "$1" "$2" "$3" "$4" "$new"
            echo "$5: $2" >&2
            echo "  https://forge.invalid/$name/$6/$1" >&2
        }
        while read -r old new ref; do
            case "$kind:$ref" in
            agit:refs/for/*)
                branch="${ref#refs/for/}"
                n=$(find "$branch" "$topic")
                [ -n "$n" ] || n=$(($(wc -l < "$reviews") + 1))
                opened "$n" "refs/pull/$n/head" "$branch" "$topic" "pull request #$n" pulls
                ;;
            gerrit:refs/for/*)
                rest="${ref#refs/for/}"
                branch=$(printf '%s' "$rest" | sed 's/%.*//')
                topic=$(printf '%s' "$rest" | sed -n 's/.*%topic=\\([^,]*\\).*/\\1/p')
                change=$(git log -1 --format='%(trailers:key=Change-Id,valueonly)' "$new")
                n=$(find "$branch" "$change")
                [ -n "$n" ] || n=$(($(wc -l < "$reviews") + 1))
                set=$(git for-each-ref --format='%(refname)' "refs/changes/$(printf '%02d' $((n % 100)))/$n/" | wc -l)
                changeRef="refs/changes/$(printf '%02d' $((n % 100)))/$n/$((set + 1))"
                opened "$n" "$changeRef" "$branch" "$change" "change $n ($topic)" changes
                ;;
            gitlab:refs/heads/*)
                source="${ref#refs/heads/}"
                n=$(awk -F '\\t' -v s="$source" '$4 == s { n = $1 } END { print n }' "$reviews")
                if [ -z "$n" ] && [ -n "$create" ]; then
                    n=$(($(wc -l < "$reviews") + 1))
                fi
                if [ -n "$n" ]; then
                    old_target=$(awk -F '\\t' -v n="$n" '$1 == n { t = $3 } END { print t }' "$reviews")
                    git update-ref "refs/merge-requests/$n/head" "$new"
                    record "$n" "refs/merge-requests/$n/head" "${target:-$old_target}" "$source" "$new"
                    echo "merge request !$n: refs/merge-requests/$n/head" >&2
                    echo "  https://forge.invalid/$name/merge_requests/$n" >&2
                fi
                ;;
            esac
        done
        exit 0

        """

    /// Serves the bare repository `bare` as a forge of `kind`: installs the hooks (keeping what ``protect(_:in:)``
    /// protects) and advertises push options, as GitLab, Gitea and Gerrit do.
    public func serve(_ kind: Kind, in bare: String) throws {
        _ = try sandbox.writeExecutable(try relative(bare + "/hooks/pre-receive"), Self.recordingPreReceiveHook)
        _ = try sandbox.writeExecutable(try relative(bare + "/hooks/post-receive"), Self.reviewPostReceiveHook)
        try (kind.rawValue + "\n").write(toFile: bare + "/" + Self.kindFile, atomically: true, encoding: .utf8)
        try sandbox.git(["config", "receive.advertisePushOptions", "true"], in: bare)
    }

    /// Every ref update the forge received (refused ones too), in order.
    public func received(in bare: String) throws -> [Received] {
        let text = (try? String(contentsOfFile: bare + "/" + Self.receivedFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 3 else { return nil }
            return Received(ref: fields[0], old: fields[1], new: fields[2], options: Array(fields.dropFirst(3)))
        }
    }

    /// The reviews the forge opened, by number.
    public func reviews(in bare: String) throws -> [Review] {
        let text = (try? String(contentsOfFile: bare + "/" + Self.reviewsFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, let number = Int(fields[0]) else { return nil }
            return Review(number: number, ref: fields[1], target: fields[2], topic: fields[3], commit: fields[4])
        }.sorted { $0.number < $1.number }
    }
}
