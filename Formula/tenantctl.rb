# Homebrew formula for tenantctl, built from source with SwiftPM.
#
#   brew tap <owner>/tenantctl <url of this repository>   # a tap of this repository (it has Formula/)
#   brew install tenantctl                               # the tagged release below
#   brew install --HEAD tenantctl                        # main
#
# Not usable yet: there is no release, and OWNER stands for the repository's owner. On the first release set `url`
# to the tag's archive, `sha256` to its checksum (`curl -sL <url> | shasum -a 256`) and OWNER everywhere, then list
# Homebrew in the README's install section.
class Tenantctl < Formula
  desc "Tenant branches across a git superproject and its submodules: switch, roll, audit"
  homepage "https://github.com/OWNER/tenantctl"
  url "https://github.com/OWNER/tenantctl/archive/refs/tags/v0.1.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  head "https://github.com/OWNER/tenantctl.git", branch: "main"

  # Swift 6.1 or newer: Xcode 16.3 on macOS.
  depends_on xcode: ["16.3", :build]
  depends_on macos: :ventura

  uses_from_macos "swift" => :build

  def install
    system "swift", "build", "-c", "release", "--disable-sandbox", "--product", "tenantctl"
    bin.install ".build/release/tenantctl"
    man1.install "docs/tenantctl.1"
    generate_completions_from_executable(bin/"tenantctl", "--generate-completion-script", shells: [:bash, :zsh, :fish])
  end

  test do
    assert_equal version.to_s, shell_output("#{bin}/tenantctl --version").strip
    # The example workspace (local bare remotes and a clone), then the checks a user runs first.
    system bin/"tenantctl", "example", testpath/"erp"
    cd testpath/"erp/workspace" do
      assert_match "the repositories agree with the files", shell_output("#{bin}/tenantctl verify")
      assert_match "Tenant Two GmbH", shell_output("#{bin}/tenantctl tenant list")
    end
  end
end
