import TenantCLI

@main
enum Entrypoint {
    static func main() {
        Tenantctl.main()
    }
}
