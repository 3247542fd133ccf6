/// The ERP example of the seed thesis (chapter 5.3) as pure data: four module repositories, the superproject's
/// files and three tenants.
///
/// The story (requirements AF.1–AF.6 of the thesis):
/// - AF.1: T2 and T3 get their own colour scheme and images — superproject branding commits only.
/// - AF.2: T2 needs only the customer overview (Infrastructure and Customer). Customer's project file on `t2` links
///   Infrastructure directly, because Article (which used to link it) is not part of T2's app.
/// - AF.3: T2 wants German and changed English strings: a `de` column in `Strings.csv` of Infrastructure and
///   Customer (`t2` branches) and `MyStrings.csv` in Customer overriding the validation messages.
/// - AF.4: T3 receives orders as JSON (the SBJson pod, listed in Order's `ModuleDescription.json`) and shows an
///   order date kept in the reserve field `stringField1` (`t3` branch of Order).
/// - AF.5: general changes of Infrastructure (frames on the start screen) and Article (title bar shows the
///   selected article); AF.6: general change of Order (QR code of the order, with the QR code library added to
///   Order's `ModuleDescription.json`). These are the ``ExampleModuleRepo/updates``.
///
/// `tenantctl compose` turns this into each tenant's build inputs: T2's strings in English and German with its
/// MyStrings.csv overrides (its tenant file lists it under `strings`) and no QR code library, since Order is not one
/// of T2's modules.
///
/// Deviation from the thesis, on purpose: the thesis lists the QR encoder as a pod in Order's ModuleDescription, next
/// to T3's SBJson pod. Here AF.6 adds it as a SwiftPM package, on the `packages` line, while T3 changed the `pods`
/// line, so `roll` merges without conflicts (Infrastructure `t2` and Order `t3` get one merge each, Article none).
/// Everything here is deterministic: no dates, no randomness; iterate dictionaries sorted.
public enum ExampleScenario {
    /// The general development branch.
    public static let generalBranch = "general_dev"

    /// General changes of stage `conflict`, per module, landed after the updates: Infrastructure's loading message
    /// is reworded on `general_dev`, in the row of `Strings.csv` that t2 translated (AF.3), so merging `general_dev`
    /// into Infrastructure's `t2` conflicts (`tenantctl resolve t2`).
    public static let conflicts: [String: [ExampleCommit]] = [
        "Infrastructure": [
            ExampleCommit(
                message: "Strings: the loading message names what is loaded",
                files: [
                    "Strings.csv": """
                    key,en
                    infrastructure.start.title,Modules
                    infrastructure.loading,Loading your data…
                    infrastructure.error.network,The server cannot be reached.

                    """
                ])
        ]
    ]

    /// How a person resolves the conflict of stage `conflict` (the demo's scripted resolution): t2's German column
    /// kept, general_dev's new wording taken and translated.
    public static let conflictResolution: (module: String, file: String, content: String) = (
        "Infrastructure", "Strings.csv",
        """
        key,en,de
        infrastructure.start.title,Modules,Module
        infrastructure.loading,Loading your data…,Ihre Daten werden geladen…
        infrastructure.error.network,The server cannot be reached.,Der Server ist nicht erreichbar.

        """
    )

    /// The four module repositories in dependency order.
    public static let modules: [ExampleModuleRepo] = [infrastructure, article, customer, order]

    /// The superproject's `modules.json`; identical to the repository's top-level `modules.json`.
    public static let modulesJSON = """
        {
          "version": 1,
          "generalBranch": "general_dev",
          "modules": [
            { "name": "Infrastructure", "path": "Modules/Infrastructure",
              "url": "../Infrastructure.git", "dependsOn": [] },
            { "name": "Article", "path": "Modules/Article",
              "url": "../Article.git", "dependsOn": ["Infrastructure"] },
            { "name": "Customer", "path": "Modules/Customer",
              "url": "../Customer.git", "dependsOn": ["Infrastructure"] },
            { "name": "Order", "path": "Modules/Order",
              "url": "../Order.git", "dependsOn": ["Infrastructure", "Article", "Customer"] }
          ]
        }

        """

    /// The superproject's `Tenants/<id>.json` files; identical to the repository's top-level `Tenants/`.
    public static let tenantJSON: [(id: String, json: String)] = [
        (
            "t1",
            """
            {
              "id": "t1",
              "name": "Tenant One AG",
              "branch": "t1",
              "modules": ["Infrastructure", "Article", "Customer", "Order"],
              "customised": [],
              "build": {
                "bundleIdentifier": "com.example.erp.t1",
                "displayName": "Tenant One AG"
              }
            }

            """
        ),
        (
            "t2",
            """
            {
              "id": "t2",
              "name": "Tenant Two GmbH",
              "branch": "t2",
              "modules": ["Infrastructure", "Customer"],
              "customised": ["Infrastructure", "Customer"],
              "strings": ["Modules/Customer/MyStrings.csv"],
              "build": {
                "bundleIdentifier": "com.example.erp.t2",
                "displayName": "Tenant Two GmbH"
              }
            }

            """
        ),
        (
            "t3",
            """
            {
              "id": "t3",
              "name": "Tenant Three KG",
              "branch": "t3",
              "modules": ["Infrastructure", "Article", "Customer", "Order"],
              "customised": ["Order"],
              "build": {
                "bundleIdentifier": "com.example.erp.t3",
                "displayName": "Tenant Three KG"
              }
            }

            """
        ),
    ]

    /// Files of the superproject on `general_dev` besides `modules.json`, `Tenants/` and `.gitmodules`.
    /// The thesis removed every tenant-specific resource from `general_dev` (chapter 5.3.1); these are the neutral
    /// defaults.
    public static let superprojectGeneralFiles: [String: String] = [
        "README.md": """
        # ERP App

        Superproject of the ERP example (seed thesis, chapter 5.3). Every module under `Modules/` is a git
        submodule. `general_dev` carries general development; `t1`, `t2` and `t3` are the tenants' branches.

        """,
        ".gitignore": """
        # Generated on every build or pod update (thesis 5.3.3, 5.3.4).
        Pods/
        Podfile
        Localizable.strings
        # Written by `tenantctl compose`.
        Generated/

        """,
        "AppName": "ERP App\n",
        "ColourScheme.conf": colourScheme(navigationBar: "#4A4A4A", progressBar: "#8A8A8A"),
        "Images/Logo.txt": "[image stand-in] neutral ERP logo, 512x512\n",
        "Images/Loading.txt": "[image stand-in] neutral loading screen, 1024x768\n",
        "BaseStrings.conf": "Modules/Infrastructure/Strings.csv\n",
        "TenantSpecificStrings.conf": """
        Modules/Article/Strings.csv
        Modules/Customer/Strings.csv
        Modules/Order/Strings.csv

        """,
    ]

    /// Per tenant, the files its superproject branch changes relative to `general_dev` (one branding commit, AF.1).
    public static let tenantBranding: [String: [String: String]] = [
        "t1": [
            "AppName": "T1 ERP\n",
            "ColourScheme.conf": colourScheme(navigationBar: "#1F4E79", progressBar: "#2E75B6"),
            "Images/Logo.txt": "[image stand-in] Tenant One AG logo, blue, 512x512\n",
        ],
        "t2": [
            "AppName": "T2 Kunden\n",
            "ColourScheme.conf": colourScheme(navigationBar: "#7B1E1E", progressBar: "#C0392B"),
            "Images/Logo.txt": "[image stand-in] Tenant Two GmbH logo, red, 512x512\n",
            "Images/Loading.txt": "[image stand-in] Tenant Two GmbH loading screen, 1024x768\n",
            "TenantSpecificStrings.conf": "Modules/Customer/Strings.csv\nModules/Customer/MyStrings.csv\n",
        ],
        "t3": [
            "AppName": "T3 ERP\n",
            "ColourScheme.conf": colourScheme(navigationBar: "#1E5631", progressBar: "#4C9A2A"),
            "Images/Logo.txt": "[image stand-in] Tenant Three KG logo, green, 512x512\n",
            "Images/Loading.txt": "[image stand-in] Tenant Three KG loading screen, 1024x768\n",
        ],
    ]

    // MARK: - Helpers

    static func colourScheme(navigationBar: String, progressBar: String) -> String {
        "# Read by GUIStyle at start-up and applied through appearance proxies.\n"
            + "navigationBar = \(navigationBar)\nprogressBar = \(progressBar)\n"
    }

    /// `ModuleDescription.json`. One line per key, `packages` and `pods` apart, so a tenant branch that
    /// adds a pod and a general change that adds a package merge without a conflict.
    static func moduleDescription(
        _ name: String, dependsOn: [String], packages: [String] = [], pods: [String] = [], platforms: String? = nil
    ) -> String {
        func list(_ values: [String]) -> String { "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
        return """
            {
              "name": "\(name)",
              "packages": [\(packages.joined(separator: ", "))],
              "dependsOn": \(list(dependsOn)),\(platforms.map { "\n  \"platforms\": \($0)," } ?? "")
              "pods": [\(pods.joined(separator: ", "))]
            }

            """
    }

    /// The network library of Infrastructure (the thesis' AFNetworking, today as a package).
    static let networkPackage =
        #"{ "url": "https://github.com/Alamofire/Alamofire.git", "from": "5.8.0", "products": ["Alamofire"] }"#
    /// The QR code library AF.6 adds to Order; its product brings the module `QRCode`, which the umbrella package
    /// re-exports.
    static let qrCodePackage =
        #"{ "url": "https://github.com/dagronf/QRCode.git", "from": "20.0.0", "products": [ { "name": "QRCode", "modules": ["QRCode"] } ] }"#
    /// T3's JSON parser (AF.4), a pod named alone as in the thesis.
    static let jsonPod = #""SBJson""#
    /// The platform every module of the app builds for (Infrastructure declares it for all).
    static let platforms = #"{ "iOS": "15.0" }"#

    static func project(_ name: String, links: [String], comment: String) -> String {
        """
        # Project file stand-in: static library and resource bundle of the \(name) module.
        name: \(name)
        targets:
          \(name):
            type: library.static
            sources: [Sources/\(name)]
            # \(comment)
            links: [\(links.joined(separator: ", "))]
          \(name)Resources:
            type: bundle
            resources: [Strings.csv, ModuleDescription.json]

        """
    }

    // MARK: - Infrastructure

    static let infrastructure = ExampleModuleRepo(
        name: "Infrastructure",
        branches: [
            ExampleBranch(
                name: generalBranch, from: nil,
                commits: [
                    ExampleCommit(
                        message: "Infrastructure: Module protocol and start screen",
                        files: [
                            "Project.yml": project("Infrastructure", links: [], comment: "the base of every module"),
                            "ModuleDescription.json": moduleDescription(
                                "Infrastructure", dependsOn: [], packages: [networkPackage], platforms: platforms),
                            "Sources/Infrastructure/Module.swift": """
                            public protocol Module {
                                var moduleDescription: String { get }
                                var moduleDependencies: [String] { get }
                                func moduleLaunchController() -> ViewController
                            }

                            """,
                            "Sources/Infrastructure/StartScreenViewController.swift": """
                            final class StartScreenViewController: ViewController {
                                // Loads the classes named in ActiveModules, drops modules with missing dependencies.
                                var moduleTiles: [ModuleTile] = []
                                let tileBorder = Border(width: 1, colour: .grey)
                            }

                            """,
                        ]),
                    ExampleCommit(
                        message: "Infrastructure: GUIStyle applies ColourScheme.conf through appearance proxies",
                        files: [
                            "Sources/Infrastructure/GUIStyle.swift": """
                            final class GUIStyle {
                                static let shared = GUIStyle(scheme: "ColourScheme.conf")
                                // Sets the navigation bar and progress bar colours; nothing else sets them.
                            }

                            """
                        ]),
                    ExampleCommit(
                        message: "Infrastructure: CoreDataHelper moves here from Article, BundleResourceHelper",
                        files: [
                            "Sources/Infrastructure/CoreDataHelper.swift": """
                            // Used by every module; was misplaced in Article (thesis 5.3.2, finding 5).
                            enum CoreDataHelper {}

                            """,
                            "Sources/Infrastructure/BundleResourceHelper.swift": """
                            // Resources are always loaded from the module's bundle.
                            enum BundleResourceHelper {}

                            """,
                        ]),
                    ExampleCommit(
                        message: "Infrastructure: Strings.csv for stringsbuilder",
                        files: [
                            "Strings.csv": """
                            key,en
                            infrastructure.start.title,Modules
                            infrastructure.loading,Loading data…
                            infrastructure.error.network,The server cannot be reached.

                            """
                        ]),
                ]),
            ExampleBranch(
                name: "t2", from: generalBranch,
                commits: [
                    ExampleCommit(
                        message: "t2: German column in Strings.csv (AF.3)",
                        files: [
                            "Strings.csv": """
                            key,en,de
                            infrastructure.start.title,Modules,Module
                            infrastructure.loading,Loading data…,Daten werden geladen…
                            infrastructure.error.network,The server cannot be reached.,Der Server ist nicht erreichbar.

                            """
                        ])
                ]),
        ],
        updates: [
            ExampleCommit(
                message: "Start screen: new frames around the module images (AF.5)",
                files: [
                    "Sources/Infrastructure/StartScreenViewController.swift": """
                    final class StartScreenViewController: ViewController {
                        // Loads the classes named in ActiveModules, drops modules with missing dependencies.
                        var moduleTiles: [ModuleTile] = []
                        let tileBorder = Border(width: 3, colour: .accent, cornerRadius: 12)
                    }

                    """
                ])
        ])

    // MARK: - Article

    static let article = ExampleModuleRepo(
        name: "Article",
        branches: [
            ExampleBranch(
                name: generalBranch, from: nil,
                commits: [
                    ExampleCommit(
                        message: "Article: list view, model and project",
                        files: [
                            "Project.yml": project(
                                "Article", links: ["Infrastructure"], comment: "links the Infrastructure library"),
                            "ModuleDescription.json": moduleDescription(
                                "Article", dependsOn: ["Infrastructure"]),
                            "Sources/Article/Article.swift": """
                            final class Article: ServerEntity {
                                @NSManaged var name: String
                                @NSManaged var orders: Set<Order>
                            }

                            """,
                            "Sources/Article/ArticleListView.swift": """
                            final class ArticleListView: ViewController, Module {
                                var title = "Articles"
                                var moduleDescription: String { "Articles" }
                            }

                            """,
                        ]),
                    ExampleCommit(
                        message: "Article: orders relation moves to the Order module (acyclic model)",
                        files: [
                            "Sources/Article/Article.swift": """
                            final class Article: ServerEntity {
                                @NSManaged var name: String
                                // `orders` is declared by the Order module (Article+Orders.swift).
                            }

                            """
                        ]),
                    ExampleCommit(
                        message: "Article: Strings.csv for stringsbuilder",
                        files: [
                            "Strings.csv": """
                            key,en
                            article.list.title,Articles
                            article.detail.price,Price

                            """
                        ]),
                ])
        ],
        updates: [
            ExampleCommit(
                message: "Article: title bar shows the selected article (AF.5)",
                files: [
                    "Sources/Article/ArticleListView.swift": """
                    final class ArticleListView: ViewController, Module {
                        var title = "Articles"
                        var moduleDescription: String { "Articles" }
                        func didSelect(_ article: Article) { title = article.name }
                    }

                    """
                ])
        ])

    // MARK: - Customer

    static let customerStrings = """
        key,en
        customer.list.title,Customers
        customer.validation.name,Name is missing.
        customer.validation.email,Email address is invalid.

        """

    static let customer = ExampleModuleRepo(
        name: "Customer",
        branches: [
            ExampleBranch(
                name: generalBranch, from: nil,
                commits: [
                    ExampleCommit(
                        message: "Customer: list view, collection cell, model and project",
                        files: [
                            "Project.yml": project(
                                "Customer", links: [], comment: "Infrastructure comes in through Article's library"),
                            "ModuleDescription.json": moduleDescription(
                                "Customer", dependsOn: ["Infrastructure"]),
                            "Sources/Customer/Customer.swift": """
                            final class Customer: ServerEntity {
                                @NSManaged var name: String
                                @NSManaged var orders: Set<Order>
                            }

                            """,
                            "Sources/Customer/CustomerListView.swift": """
                            final class CustomerListView: ViewController, Module {
                                var moduleDescription: String { "Customers" }
                            }

                            """,
                            "Sources/Customer/CustomerCollectionViewCell.swift": """
                            final class CustomerCollectionViewCell: CollectionViewCell {
                                func configure(with customer: Customer) { label.text = customer.name }
                            }

                            """,
                        ]),
                    ExampleCommit(
                        message: "Customer: detail view with input validation",
                        files: [
                            "Sources/Customer/CustomerDetailView.swift": """
                            final class CustomerDetailView: ViewController {
                                func validate() -> [String] {
                                    ["customer.validation.name", "customer.validation.email"]
                                }
                            }

                            """
                        ]),
                    ExampleCommit(
                        message: "Customer: orders relation moves to the Order module (acyclic model)",
                        files: [
                            "Sources/Customer/Customer.swift": """
                            final class Customer: ServerEntity {
                                @NSManaged var name: String
                                // `orders` is declared by the Order module (Customer+Orders.swift).
                            }

                            """
                        ]),
                    ExampleCommit(
                        message: "Customer: Strings.csv for stringsbuilder",
                        files: ["Strings.csv": customerStrings]),
                ]),
            ExampleBranch(
                name: "t2", from: generalBranch,
                commits: [
                    ExampleCommit(
                        message: "t2: link Infrastructure directly, Article is not part of T2's app (AF.2)",
                        files: [
                            "Project.yml": project(
                                "Customer", links: ["Infrastructure"],
                                comment: "t2: Article is absent, so Customer links Infrastructure itself")
                        ]),
                    ExampleCommit(
                        message: "t2: German column in Strings.csv (AF.3)",
                        files: [
                            "Strings.csv": """
                            key,en,de
                            customer.list.title,Customers,Kunden
                            customer.validation.name,Name is missing.,Name fehlt.
                            customer.validation.email,Email address is invalid.,E-Mail-Adresse ist ungültig.

                            """
                        ]),
                    ExampleCommit(
                        message: "t2: MyStrings.csv overrides the validation messages (AF.3)",
                        files: [
                            "MyStrings.csv": """
                            key,en,de
                            customer.validation.name,Please enter the customer's name.,Bitte den Kundennamen eingeben.
                            customer.validation.email,Please check the email address.,Bitte die E-Mail-Adresse prüfen.

                            """
                        ]),
                ]),
        ],
        updates: [])

    // MARK: - Order

    static let order = ExampleModuleRepo(
        name: "Order",
        branches: [
            ExampleBranch(
                name: generalBranch, from: nil,
                commits: [
                    ExampleCommit(
                        message: "Order: list, detail and tab controller, model, loader and project",
                        files: [
                            "Project.yml": project(
                                "Order", links: ["Infrastructure", "Article", "Customer"],
                                comment: "orders refer to articles and customers"),
                            "ModuleDescription.json": moduleDescription(
                                "Order", dependsOn: ["Infrastructure", "Article", "Customer"]),
                            "OrderModel.json": """
                            { "entity": "Order", "attributes": ["number", "customer", "articles"] }

                            """,
                            "OrderServerInfo.json": """
                            { "url": "https://example.invalid/erp/orders.plist", "format": "plist" }

                            """,
                            "Sources/Order/Order.swift": """
                            final class Order: ServerEntity {
                                @NSManaged var number: String
                                @NSManaged var customer: Customer
                                @NSManaged var articles: Set<Article>
                            }

                            """,
                            "Sources/Order/OrderLoader.swift": """
                            enum OrderLoader {
                                static func parse(_ data: Data) throws -> [[String: Any]] {
                                    try PropertyListSerialization.orders(from: data)
                                }
                            }

                            """,
                            "Sources/Order/OrderTabController.swift": """
                            final class OrderTabController: TabViewController, Module {
                                var moduleDescription: String { "Orders" }
                                var moduleDependencies: [String] { ["Infrastructure", "Article", "Customer"] }
                            }

                            """,
                            "Sources/Order/OrderDetailView.swift": """
                            final class OrderDetailView: ViewController {
                                var rows: [DetailRow] { OrderDetailRows.rows(for: order) }
                            }

                            """,
                            "Sources/Order/OrderDetailRows.swift": """
                            enum OrderDetailRows {
                                static func rows(for order: Order) -> [DetailRow] {
                                    [.text(order.number), .text(order.customer.name), .list(order.articles)]
                                }
                            }

                            """,
                        ]),
                    ExampleCommit(
                        message: "Order: Article and Customer order relations live here (acyclic model)",
                        files: [
                            "Sources/Order/Article+Orders.swift": """
                            extension Article {
                                @NSManaged var orders: Set<Order>
                            }

                            """,
                            "Sources/Order/Customer+Orders.swift": """
                            extension Customer {
                                @NSManaged var orders: Set<Order>
                            }

                            """,
                        ]),
                    ExampleCommit(
                        message: "Order: Strings.csv for stringsbuilder",
                        files: [
                            "Strings.csv": """
                            key,en
                            order.list.title,Orders
                            order.detail.customer,Customer

                            """
                        ]),
                    ExampleCommit(
                        message: "Order: reserve field stringField1 in the data model, no interface in the class",
                        files: [
                            "OrderModel.json": """
                            { "entity": "Order", "attributes": ["number", "customer", "articles", "stringField1"] }

                            """
                        ]),
                ]),
            ExampleBranch(
                name: "t3", from: generalBranch,
                commits: [
                    ExampleCommit(
                        message: "t3: orders arrive as JSON, parsed with SBJson (AF.4)",
                        files: [
                            "ModuleDescription.json": moduleDescription(
                                "Order", dependsOn: ["Infrastructure", "Article", "Customer"], pods: [jsonPod]),
                            "OrderServerInfo.json": """
                            { "url": "https://example.invalid/erp/t3/orders.json", "format": "json" }

                            """,
                            "Sources/Order/OrderLoader.swift": """
                            enum OrderLoader {
                                static func parse(_ data: Data) throws -> [[String: Any]] {
                                    try SBJsonParser().orders(from: data)
                                }
                            }

                            """,
                        ]),
                    ExampleCommit(
                        message: "t3: order date kept in the reserve field stringField1 (AF.4)",
                        files: [
                            "Sources/Order/Order+OrderDate.swift": """
                            extension Order {
                                // T3's order date lives in the reserve field of the shared data model.
                                var orderDate: String? {
                                    get { value(forKey: "stringField1") as? String }
                                    set { setValue(newValue, forKey: "stringField1") }
                                }
                            }

                            """,
                            "Sources/Order/OrderDetailRows.swift": """
                            enum OrderDetailRows {
                                static func rows(for order: Order) -> [DetailRow] {
                                    [
                                        .text(order.number), .text(order.customer.name), .text(order.orderDate ?? ""),
                                        .list(order.articles),
                                    ]
                                }
                            }

                            """,
                        ]),
                ]),
        ],
        updates: [
            ExampleCommit(
                message: "Order: QR code of the order in the detail view (AF.6)",
                files: [
                    "ModuleDescription.json": moduleDescription(
                        "Order", dependsOn: ["Infrastructure", "Article", "Customer"], packages: [qrCodePackage]),
                    "Sources/Order/OrderDetailView.swift": """
                    final class OrderDetailView: ViewController {
                        var rows: [DetailRow] { OrderDetailRows.rows(for: order) }
                        let qrCode = OrderQRCodeView()
                    }

                    """,
                    "Sources/Order/OrderQRCodeView.swift": """
                    final class OrderQRCodeView: View {
                        // Rendered on the device with the QRCode package (ModuleDescription.json).
                        func show(_ order: Order) { image = QRCode.encode(order.number) }
                    }

                    """,
                ])
        ])
}
