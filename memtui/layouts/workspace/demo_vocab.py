"""Text pools for the workspace layout (seed 000): XiaoPaw's memory of a developer user."""

from __future__ import annotations

INDEX_TITLE = "# XiaoPaw 记忆索引"
USER_SECTION = "## 用户偏好"
USER_POINTER = "→ 详见 user.md（Bootstrap 直接注入，此处不重复）"

# Index sections and the topic subjects that belong under each: (file-name stem, description).
TOPIC_SECTIONS: list[tuple[str, list[tuple[str, str]]]] = [
    (
        "## 工作项目",
        [
            ("course", "极客时间课程"),
            ("billing", "计费服务重构"),
            ("mobile_app", "移动端 App"),
            ("data_pipeline", "数据管道"),
        ],
    ),
    (
        "## 技术栈与工具",
        [
            ("python_env", "Python 环境"),
            ("docker", "Docker 配置"),
            ("neovim", "Neovim 配置"),
            ("git_workflow", "Git 工作流"),
        ],
    ),
    (
        "## 重要决策（近6个月）",
        [
            ("tech_stack", "技术选型与架构"),
            ("vendor", "云厂商选择"),
            ("hiring", "招聘"),
        ],
    ),
    (
        "## 学习计划",
        [
            ("rust", "Rust 学习"),
            ("llm_agents", "LLM Agent 研究"),
            ("english", "英语口语"),
            ("system_design", "系统设计"),
        ],
    ),
    (
        "## 投资理财",
        [
            ("investment", "投资组合"),
            ("fund", "基金定投"),
            ("tax", "个税申报"),
        ],
    ),
    (
        "## 健康与运动",
        [
            ("running", "跑步训练"),
            ("sleep", "睡眠"),
            ("checkup", "体检"),
        ],
    ),
    (
        "## 家庭与关系",
        [
            ("parents", "父母健康"),
            ("partner", "和女朋友的安排"),
            ("cat", "猫咪年糕"),
        ],
    ),
    (
        "## 旅行",
        [
            ("japan_trip", "日本旅行"),
            ("yunnan_trip", "云南自驾"),
            ("visa", "签证与护照"),
        ],
    ),
    (
        "## 阅读与写作",
        [
            ("books", "读书笔记"),
            ("blog", "技术博客"),
            ("newsletter", "周刊订阅"),
        ],
    ),
    (
        "## 开源贡献",
        [
            ("oss", "开源贡献"),
            ("memtui", "memtui 项目"),
        ],
    ),
    (
        "## 团队协作",
        [
            ("team", "团队"),
            ("one_on_one", "1:1 沟通"),
            ("oncall", "值班"),
        ],
    ),
    (
        "## 技术分享",
        [
            ("talks", "技术分享"),
            ("conference", "QCon 大会"),
        ],
    ),
    (
        "## 设备与家居",
        [
            ("homelab", "家庭服务器"),
            ("nas", "NAS 备份"),
            ("keyboard", "机械键盘"),
        ],
    ),
    (
        "## 副业",
        [
            ("side_project", "独立开发副业"),
            ("saas", "SaaS 小产品"),
        ],
    ),
    (
        "## 职业发展",
        [
            ("career", "职业规划"),
            ("promotion", "晋升答辩"),
        ],
    ),
    (
        "## 其他",
        [
            ("recipes", "菜谱"),
            ("gifts", "送礼清单"),
        ],
    ),
]

ASPECTS: list[tuple[str, str]] = [
    ("progress", "进度"),
    ("plan", "规划"),
    ("notes", "笔记"),
    ("decisions", "决策记录"),
    ("issues", "问题清单"),
    ("timeline", "时间线"),
    ("checklist", "检查清单"),
    ("retro", "复盘"),
    ("budget", "预算"),
    ("contacts", "联系人"),
    ("ideas", "想法"),
    ("faq", "常见问题"),
]

# One line of a topic file; {s} is the topic's subject (e.g. 极客时间课程).
TOPIC_NOTES = [
    "用户决定先做 MVP，其余需求放到下个迭代",
    "确认用 uv 管理依赖，不再用 pip-tools",
    "用户希望每周五下午回顾一次{s}的进展",
    "Agreed with Lin to cut scope and ship the read-only view first",
    "预算上限 3000 元，超出要先和家里商量",
    "卡在权限问题上两天，最后发现是 SELinux",
    "User prefers a short summary first, details on request",
    "下次讨论{s}前先整理 open questions 清单",
    "deadline 推迟到月底，用户明显松了口气",
    "和产品对齐了优先级，P0 只有三项",
    "The staging numbers look fine; prod rollout next Tuesday",
    "用户说{s}这件事不要主动提醒，等他自己提",
    "参考了 Martin Fowler 的文章，决定走 strangler fig",
    "记录一个坑：时区默认是 UTC，报表差了 8 小时",
    "Postponed; revisit {s} after the Q1 planning",
    "用户对结果很满意，说“这次终于稳了”",
    "新买的设备到了，周末折腾一下",
    "已经连续坚持三周，比上次计划执行得好",
    "第二次尝试仍失败，原因待查（用户怀疑网络）",
    "Keep the old config around until the migration is verified",
    "和妈妈通了电话，情况稳定",
    "列了三个备选方案，倾向方案 B（成本最低）",
    "用户提到想在 2027 年前把{s}这件事做完",
    "相关文档放在 Notion 的「Projects」页面下",
]

TOPIC_SUBHEADINGS = ["## 背景", "## 进展", "## 待办", "## 记录"]

SOUL_MD = """\
# XiaoPaw 的灵魂设定

## 名字
XiaoPaw

## 人设
一只住在用户终端里的橘猫助手，懂一点编程，更懂陪伴。
说话简短，先给结论；技术问题认真，生活问题温柔。

## 性格
- 好奇、耐心，偶尔嘴硬
- 不说教，不灌鸡汤
- 用户深夜还在加班时，会提醒他去睡觉
"""

USER_MD = """\
# 用户档案

## 基本信息
- 称呼：老王（熟了以后可以叫“王哥”）
- 职业：后端工程师，目前在做计费系统重构
- 城市：杭州
- Timezone: Asia/Shanghai

## 沟通偏好
- 回复控制在 200 字以内，先给结论
- 代码示例用 Python，除非他指定别的语言
- 不喜欢太多 emoji
- Prefers English for commit messages, Chinese for chat

## 技术偏好
- 编辑器：Neovim + LazyVim
- Python 依赖管理用 uv，不用 conda
- 部署优先 docker compose，不上 k8s 除非必要

## 作息习惯
- 通常 10 点后开始工作，晚上效率最高
- 周三晚上固定跑步，不安排事情

## 禁忌
- 不要提他前公司裁员的事
- 不主动聊体重
"""

AGENT_SECTIONS: list[tuple[str, list[str]]] = [
    (
        "## 回复风格",
        [
            "回答技术问题先给可运行的命令，再解释",
            "用户说“简单点”时，只保留一段话",
            "Code blocks must name the language for syntax highlighting",
        ],
    ),
    (
        "## 工具使用",
        [
            "改文件前先 Read，改完 read-back 验证",
            "不执行 rm -rf，需要删除时先让用户确认",
            "跑测试用 .venv/bin/pytest，不用系统 python",
        ],
    ),
    (
        "## 记忆写入",
        [
            "memory.md 只写指针，详细内容写 memory_<name>.md",
            "写入前先检查 memory.md 行数（≥150 行提醒治理）",
            "用户明确说“别记”的内容不写入任何文件",
            "同一偏好只保留一条，旧的用 str_replace 更新",
        ],
    ),
    (
        "## 深夜模式",
        [
            "23:30 以后回复更短，并提醒休息",
            "If the user is debugging prod at night, skip the reminder",
        ],
    ),
]

# The one topic file that is named against the rules (topic-name finding); it is pointed to.
BAD_NAME_TOPIC = ("memory_Travel-Plans.md", "年底出行计划（旧文件名）")
# Pointed to but never written (pointer-missing).
MISSING_TOPIC = ("memory_blog_migration.md", "旧版博客迁移记录")
# Written but never pointed to (topic-orphan).
ORPHAN_TOPIC = ("memory_draft_ideas.md", "随手记的点子（未整理）")
# Suffix of a second pointer to an already indexed file (pointer-duplicate).
DUPLICATE_SUFFIX = "（重复登记）"
# Content that leaked into the index (index-content).
INDEX_CONTENT_LINE = "用户下周三要交季度报告，记得提醒他（临时记在这里，待迁移）"
