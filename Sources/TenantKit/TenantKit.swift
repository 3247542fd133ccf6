// The library: every layer target, for the CLI, the example and the tests (`import TenantKit`).
@_exported import TenantAudit
@_exported import TenantCompose
@_exported import TenantLifecycle
@_exported import TenantResolve
@_exported import TenantRoll
@_exported import TenantVerify
