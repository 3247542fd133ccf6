import TenantKit
