import TenantCLI

@main
enum Entrypoint {
    static func main() {
        Tenantctl.runMain()
    }
}
