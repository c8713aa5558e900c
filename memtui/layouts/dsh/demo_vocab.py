"""Text pools for the dsh layout (seed 004): verified environment facts and task procedures."""

from __future__ import annotations

META_SOP_MD = """\
# 记忆管理元规则（L0）

1. 行动验证：No Execution, No Memory。只写成功验证过的信息，evidence 必填。
2. 最小充分：内容尽可能短；只记“遗忘会导致高成本重试”的信息。
3. 不删改验证事实：可以压缩、迁移、supersede、archive，严禁物理丢弃。
4. 主动写入 + 候选确认：自动蒸馏只进 pending/，正式记忆必须经确认。
5. index.txt 保持 ≤30 行；auto 段只由 memory_index 重建，RULES 行手写。
6. 易变状态（时间戳、PID、临时路径、一次性 ID）一律不写。
"""

INDEX_HEADER = "# L1 索引（每轮注入，≤30 行；auto 段由 memory_index 重建）"
INDEX_RULES: list[tuple[str, list[str]]] = [
    (
        "# 红线",
        [
            "No Execution, No Memory：没有 evidence 的候选不接受",
            "不写易变状态：时间戳、PID、临时路径、一次性 ID",
            "rm -rf / DROP / force-push 之前必须让用户确认",
            "生产库只用只读账号连接，写操作走迁移脚本",
            "密钥不进记忆：只记存放位置，不记内容",
            "Never run `docker system prune -a` on prod hosts",
        ],
    ),
    (
        "# 写入",
        [
            "环境事实 → facts.md 对应 SECTION；任务经验 → sops/<name>.md",
            "同一事实只保留一条，旧的 supersede，不追加",
            "sop 名用小写连字符：动词-对象（如 deploy-nginx）",
            "候选先进 pending/，memory_accept 后才入正式记忆",
            "多次重试才成功的坑点必须写进 sop 的「坑点」",
            "Facts are one line each; longer notes belong in a sop",
        ],
    ),
    (
        "# 读取",
        [
            "新任务涉及本机环境时，先看 [FACTS] 再 memory_read",
            "遇到报错先查 [SOPS] 里同名对象的 sop",
            "sop 与现状不符时，按现状执行并提交 update 候选",
            "看到 pending 积压超过 20 条时提醒用户处理",
            "Prefer the most recently updated sop when two overlap",
            "index.txt 超过 25 行时建议运行 memory_maintain",
        ],
    ),
]

SECTION_BASES = [
    "PYTHON_ENV",
    "GIT",
    "DOCKER",
    "NETWORK",
    "DATABASE",
    "SHELL",
    "EDITOR",
    "GPU_CUDA",
    "SSH_HOSTS",
    "KUBERNETES",
    "CI_RUNNERS",
    "PROXY",
    "BACKUP",
    "NODE_ENV",
    "RUST_TOOLCHAIN",
    "MACOS",
    "NGINX",
    "REDIS",
    "MONITORING",
    "CLOUD_AWS",
    "LOGGING",
    "FONTS",
    "HOMEBREW",
    "CERTS",
]
# Qualifiers that turn a base into more sections on big stores (PYTHON_ENV_GPU01, ...).
SECTION_TAGS = [
    "DEVBOX",
    "GPU01",
    "GPU02",
    "NAS",
    "LAPTOP",
    "CI01",
    "STAGING",
    "PROD",
    "BUILD01",
    "HOMELAB",
    "MAC_MINI",
    "VPS_HK",
    "VPS_SG",
    "OFFICE",
    "EDGE01",
    "EDGE02",
    "LAB",
    "DR_SITE",
    "QA",
    "DEMO",
    "SANDBOX",
    "ARM01",
    "WIN_WSL",
    "PI4",
]
# Never among the generated sections: the target of the one fact candidate for a new section.
NEW_SECTION = "WSL_INTEROP"
ARCHIVED_SECTION = "LEGACY_PROXY"
ARCHIVED_SECTION_FACTS = [
    "公司旧代理 proxy.corp.lan:3128 已于今年停用",
    "旧代理需要 NTLM 认证，curl 要加 --proxy-ntlm",
]

HOSTS = ["devbox", "gpu01", "nas", "laptop", "ci-runner-2", "staging-1", "prod-api-3", "build01"]
PROJECTS = ["billing", "memtui", "blog", "homelab", "ledger", "pawbot", "crawler", "notes-api"]

# Fact templates by section base; a section without its own list uses GENERIC_FACTS.
# Slots: {host} {proj} {py} {ver} {port} {n} {minor} {ip}.
FACTS: dict[str, list[str]] = {
    "PYTHON_ENV": [
        "{host} 的系统 Python 是 {py}，项目一律用 uv 建 venv",
        "{proj} 的 venv 在 /opt/{proj}/.venv，跑 pytest 前先激活",
        "pytest-xdist 在 {host} 上用 -n {n} 最快",
        "{proj}: `python -m pip` is shadowed by a pyenv shim; call /opt/{proj}/.venv/bin/python",
        "{proj} 锁定 numpy {ver}，升级会让 {host} 上的 C 扩展编译失败",
    ],
    "GIT": [
        "{proj} 仓库默认分支 main，CI 全量跑完约 {n} 分钟",
        "{host} 上 git 用的 SSH key 是 ~/.ssh/id_ed25519_{proj}",
        "{proj} 用 git lfs 管理 *.onnx，clone 前先 git lfs install（lfs {ver}）",
        "{proj}: pre-commit takes ~{n}s on {host}; mypy is the slow hook",
    ],
    "DOCKER": [
        "{host} 的 docker 数据目录在 /data/docker（根分区只有 {n}G）",
        "{proj} 的 compose 文件在 deploy/compose.yml，服务端口 {port}",
        "构建 {proj} 镜像要加 --platform linux/amd64（{host} 是 ARM，docker {ver}）",
        "私有 registry 是 registry.{host}.lan:{port}",
        "{host}: `docker system prune` frees about {n}G a week; volumes are untouched",
    ],
    "NETWORK": [
        "{host} 的内网 IP 是 {ip}",
        "连公司 VPN 后 DNS 走 {ip}，{proj} 的内网域名才能解析",
        "{host} 访问 GitHub 需要走代理 127.0.0.1:{port}",
        "{host} 的 WireGuard 端口 {port}/udp，MTU 设 1380 才稳定",
    ],
    "DATABASE": [
        "{proj} 的 Postgres 在 {host}:{port}，只读账号 reader",
        "pg_dump {proj} 全量约 {n}G，用 -Fc 压缩后小一半",
        "{proj} 的 Postgres 版本 {ver}，升级前先 pg_upgrade --check",
        "{proj}: migrations run with `alembic upgrade head` from {host} only",
    ],
    "GPU_CUDA": [
        "{host} 的驱动支持 CUDA 12.{minor}，torch 用 cu12{minor} 的 wheel",
        "{host} 有 {n} 张卡，CUDA_VISIBLE_DEVICES 从 0 开始",
        "nvidia-smi 在 {host} 上要 sudo 才看得到进程（驱动 {ver}）",
    ],
    "SSH_HOSTS": [
        "{host} 通过跳板机 jump.{proj}.lan:{port} 登录",
        "~/.ssh/config 里 {host} 的别名是 {proj}-{n}",
        "{host}: password login is disabled; the key lives in 1Password ({proj} vault)",
    ],
}
GENERIC_FACTS = [
    "{host} 上 {proj} 相关服务监听 {port} 端口",
    "{proj} 在 {host} 的配置文件版本 {ver}，改完要重启才生效",
    "{host}: the {proj} job needs {n} GB of free disk before it starts",
    "{proj} 的定时任务在 {host} 上每 {n} 分钟跑一次",
    "{host} 装的是 {ver}，和文档里的版本不同，参数以 --help 为准",
]

SOP_VERBS = [
    ("deploy", "部署"),
    ("rebuild", "重建"),
    ("rotate", "轮换"),
    ("migrate", "迁移"),
    ("debug", "排查"),
    ("setup", "搭建"),
    ("backup", "备份"),
    ("restore", "恢复"),
    ("upgrade", "升级"),
    ("benchmark", "压测"),
]
SOP_OBJECTS = [
    ("nginx", "nginx"),
    ("postgres", "Postgres"),
    ("redis", "Redis"),
    ("python-venv", "Python venv"),
    ("ssl-cert", "SSL 证书"),
    ("gpu-driver", "GPU 驱动"),
    ("k8s-ingress", "K8s Ingress"),
    ("docker-registry", "Docker 私有仓库"),
    ("grafana", "Grafana"),
    ("ci-runner", "CI runner"),
    ("blog", "博客"),
    ("nas-snapshots", "NAS 快照"),
    ("wireguard", "WireGuard"),
    ("billing-api", "计费 API"),
    ("cron-jobs", "定时任务"),
    ("node-toolchain", "Node 工具链"),
    ("minio", "MinIO"),
    ("prometheus", "Prometheus"),
    ("ollama", "Ollama 模型服务"),
    ("homebrew", "Homebrew"),
]
# Variants of a sop for more environments on big stores (deploy-nginx-staging, ...).
SOP_ENVS = ["staging", "prod", "local", "ci", "gpu01", "nas", "laptop", "hk", "sg", "lab"]
ARCHIVED_SOPS = [("deploy-jenkins", "部署 Jenkins"), ("setup-vagrant-box", "搭建 Vagrant 虚拟机")]

SOP_CONTEXT = [
    "每次发版或配置变更后执行；整个流程约 15 分钟。",
    "只在 {host} 上验证过，其他机器先看前置条件。",
    "Used after the {proj} incident; the order of the steps matters.",
    "第三次踩坑后整理的版本，照做即可，不要跳步。",
]
SOP_PREREQS = [
    "有 {host} 的 sudo 权限",
    "VPN 已连接，能解析 *.{proj}.lan",
    "磁盘剩余空间 > {n}G（`df -h /data`）",
    "The {proj} venv is active",
    "已在群里打招呼，避开 {n} 点的定时任务",
]
SOP_STEPS = [
    "登录目标机器：`ssh {host}`",
    "确认当前版本：`{obj} --version`，记下来以便回滚",
    "备份现有配置：`cp -a /etc/{obj} /etc/{obj}.bak.$(date +%F)`",
    "拉取最新代码：`git pull --rebase`",
    "Build the image: `docker build -t {obj}:$(git rev-parse --short HEAD) .`",
    "停止旧服务：`sudo systemctl stop {obj}`",
    "执行迁移：`make migrate ENV=staging`，失败立即停止",
    "启动并看日志：`journalctl -u {obj} -f`，出现 ready 再继续",
    "检查端口：`ss -ltnp | grep {port}`",
    "reload 前先校验：`nginx -t && nginx -s reload`",
    "Run the smoke tests: `pytest tests/smoke -q`",
    "在 Grafana 看 10 分钟错误率，低于 0.1% 才算完成",
    "清理临时文件：`rm -rf /tmp/{obj}-build`（只删自己建的）",
    "在群里同步：{obj} 已完成，附上版本号",
]
SOP_PITFALLS = [
    "{host} 的时区是 UTC，看日志时要 +8 小时",
    "不要在 {n} 点整操作，会撞上备份任务",
    "配置里的路径必须是绝对路径，相对路径在 systemd 下会失效",
    "The health check needs ~{n}s to turn green; don't restart early",
    "证书链要包含中间证书，否则 Android 客户端报错",
    "改完 sysctl 要 `sysctl --system`，只改文件不生效",
]
SOP_CHECKS = [
    "`curl -sI https://{proj}.lan` → 200",
    "`systemctl is-active {obj}` → active",
    "`pytest -q` → all passed",
    "日志里没有 ERROR（`journalctl -u {obj} --since -10m | grep -c ERROR` → 0）",
]

# Evidence for a fact candidate, by section base; other sections use GENERIC_EVIDENCE.
# Sop candidates quote one of their SOP_CHECKS instead.
EVIDENCE: dict[str, list[str]] = {
    "PYTHON_ENV": ["pytest -q → {n}1 passed", "uv pip list | grep torch → 2.{minor}.0"],
    "DOCKER": [
        "docker compose ps → all {n} services healthy",
        "docker info → Storage Driver: overlay2",
    ],
    "GPU_CUDA": ["nvidia-smi → CUDA 12.{minor} visible", "python -c 'import torch' → cuda True"],
    "DATABASE": ["pg_isready -h {host} -p {port} → accepting connections"],
    "NETWORK": ["ping -c 3 {ip} → 0% packet loss", "curl -sI https://{proj}.lan → 200"],
    "SSH_HOSTS": ["ssh {host} true → exit 0"],
    "GIT": ["git ls-remote origin main → ok", "pre-commit run -a → Passed"],
}
GENERIC_EVIDENCE = [
    "curl -sI https://{proj}.lan → 200",
    "ssh {host} true → exit 0",
    "{host}: command ran, exit 0",
    "make check → OK",
]

REJECT_REASONS = [
    "只在一次会话里出现，无法复现",
    "临时路径，不该进记忆",
    "与 facts.md 已有条目重复",
]
