extension WebAsset {
  /// The stylesheet's text. Colours come from the custom properties of the theme stylesheet
  /// (`PageStyle`); the fallbacks here are the default light palette.
  static let css = #"""
    *,*::before,*::after{box-sizing:border-box}
    html{-webkit-text-size-adjust:100%}
    body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;background:var(--bg,#F6F7F9);color:var(--text,#1B1F24)}
    a{color:var(--accent,#0A58CA)}
    a:hover{text-decoration-thickness:2px}
    :focus-visible{outline:3px solid var(--accent,#0A58CA);outline-offset:2px}
    .visually-hidden{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
    .skip-link{position:absolute;left:1rem;top:-4rem;padding:.5rem 1rem;background:var(--accent,#0A58CA);color:var(--on-accent,#FFF);border-radius:var(--radius,8px);z-index:10}
    .skip-link:focus{top:1rem}
    .site-header{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1.5rem;padding:1rem clamp(1rem,4vw,2.5rem);border-bottom:1px solid var(--border,#C9D1D9);background:var(--card,#FFF)}
    .project-name{margin:0;font-weight:700;font-size:1.15rem}
    .project-name a{color:var(--text,#1B1F24);text-decoration:none}
    .site-header ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
    .site-header nav a{text-decoration:none;padding:.25rem 0}
    .site-header nav a[aria-current=page]{color:var(--text,#1B1F24);font-weight:600;border-bottom:2px solid var(--accent,#0A58CA)}
    main{display:block;max-width:80rem;margin:0 auto;padding:1.5rem clamp(1rem,4vw,2.5rem) 3rem}
    main:focus{outline:none}
    h1{font-size:1.9rem;line-height:1.2;margin:.5rem 0 1.25rem}
    h2{font-size:1.35rem;margin:2rem 0 .75rem}
    .notice,.vote-status:not(:empty){max-width:80rem;margin:1rem auto 0;padding:.6rem 1rem;border:1px solid var(--border,#C9D1D9);border-radius:var(--radius,8px);background:var(--card,#FFF)}
    .vote-status:empty{display:none}
    .columns{display:grid;grid-auto-flow:column;grid-auto-columns:minmax(16rem,1fr);gap:1rem;overflow-x:auto;padding-bottom:.5rem}
    .column{background:color-mix(in srgb,var(--card,#FFF) 55%,var(--bg,#F6F7F9));border:1px solid var(--border,#C9D1D9);border-top:4px solid var(--stage,var(--border,#C9D1D9));border-radius:var(--radius,8px);padding:.75rem}
    .column h3{font-size:1rem;margin:0 0 .75rem;display:flex;align-items:center;gap:.5rem}
    .stage-dot,.tag-dot{display:inline-block;width:.6rem;height:.6rem;border-radius:50%;background:var(--stage,var(--tag,var(--border,#C9D1D9)))}
    .tag-dot{background:var(--tag,var(--border,#C9D1D9))}
    .column-count{margin-left:auto;color:var(--text-2,#57606A);font-weight:400;font-size:.9rem}
    .cards,.feature-list{list-style:none;margin:0;padding:0;display:grid;gap:.75rem}
    .card{display:flex;gap:.75rem;align-items:flex-start;background:var(--card,#FFF);border:1px solid var(--border,#C9D1D9);border-radius:var(--radius,8px);padding:.75rem}
    .card-body{min-width:0;flex:1}
    .card-title{font-size:1rem;margin:0 0 .25rem;overflow-wrap:anywhere}
    .card-title a{color:var(--text,#1B1F24);text-decoration:none}
    .card-title a:hover{text-decoration:underline}
    .excerpt{margin:0 0 .4rem;color:var(--text-2,#57606A);font-size:.92rem;overflow-wrap:anywhere}
    .meta{margin:0;color:var(--text-2,#57606A);font-size:.85rem;display:flex;flex-wrap:wrap;gap:.25rem .75rem}
    .stage-badge{font-weight:600}
    .tags{list-style:none;margin:0 0 .4rem;padding:0;display:flex;flex-wrap:wrap;gap:.35rem}
    .tag{display:inline-flex;align-items:center;gap:.35rem;font-size:.8rem;padding:.05rem .5rem;border:1px solid var(--border,#C9D1D9);border-radius:999px}
    .vote{flex:none;min-width:3.5rem;text-align:center}
    .vote-button{display:flex;flex-direction:column;align-items:center;min-width:3.5rem;min-height:3.5rem;padding:.35rem .5rem;font:inherit;line-height:1.1;color:var(--accent,#0A58CA);background:var(--card,#FFF);border:2px solid var(--accent,#0A58CA);border-radius:var(--radius,8px);cursor:pointer}
    .vote-button[aria-pressed=true]{background:var(--accent,#0A58CA);color:var(--on-accent,#FFF)}
    .vote-button:disabled{cursor:default;color:var(--text-2,#57606A);border-color:var(--border,#C9D1D9)}
    .vote-button[aria-busy=true]{cursor:progress}
    .vote-count{font-weight:700;font-size:1.1rem}
    .vote-noun{font-size:.72rem}
    .vote.closed{display:flex;flex-direction:column;color:var(--text-2,#57606A);padding:.35rem .5rem;line-height:1.1}
    .filters{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end;margin:0 0 1rem}
    .field{display:flex;flex-direction:column;gap:.25rem}
    .field label{font-weight:600;font-size:.9rem}
    input,select,textarea{font:inherit;color:var(--text,#1B1F24);background:var(--card,#FFF);border:1px solid var(--text-2,#57606A);border-radius:calc(var(--radius,8px) / 2);padding:.4rem .55rem}
    textarea{width:100%;resize:vertical}
    .suggest-form .field{margin-bottom:.75rem;max-width:40rem}
    .suggest-form fieldset{border:0;margin:0;padding:0}
    .hint{margin:0;font-size:.82rem;color:var(--text-2,#57606A)}
    .button{font:inherit;font-weight:600;padding:.45rem 1.1rem;color:var(--on-accent,#FFF);background:var(--accent,#0A58CA);border:2px solid var(--accent,#0A58CA);border-radius:var(--radius,8px);cursor:pointer}
    .button:disabled{opacity:.55;cursor:not-allowed}
    .suggest-status:not(:empty){font-weight:600}
    .pager{margin-top:1rem}
    .empty{color:var(--text-2,#57606A)}
    .more{margin:.75rem 0 0;font-size:.9rem}
    .detail-head{display:flex;gap:1rem;align-items:flex-start}
    .detail-head h1{margin-top:0;overflow-wrap:anywhere}
    .description,.response{max-width:46rem;overflow-wrap:anywhere}
    .response{border-left:4px solid var(--accent,#0A58CA);padding:.25rem 1rem;margin-top:1.5rem;background:var(--card,#FFF);border-radius:0 var(--radius,8px) var(--radius,8px) 0}
    .response h2{margin-top:.5rem;font-size:1.1rem}
    .facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:.75rem;margin:1.5rem 0;max-width:46rem}
    .facts div{background:var(--card,#FFF);border:1px solid var(--border,#C9D1D9);border-radius:var(--radius,8px);padding:.5rem .75rem}
    .facts dt{font-size:.8rem;color:var(--text-2,#57606A)}
    .facts dd{margin:0;font-weight:600}
    progress{accent-color:var(--accent,#0A58CA);vertical-align:middle}
    .releases{display:grid;gap:1.25rem;max-width:46rem}
    .release{display:block;padding:1rem 1.25rem}
    .release h2{margin:0}
    .release-date{margin:.1rem 0 .75rem;color:var(--text-2,#57606A)}
    .notes{overflow-wrap:anywhere}
    .notes pre{overflow-x:auto;padding:.75rem;border:1px solid var(--border,#C9D1D9);border-radius:var(--radius,8px)}
    .shipped-title{font-size:1rem;margin:1rem 0 .25rem}
    .site-footer{text-align:center;color:var(--text-2,#57606A);font-size:.85rem;padding:1rem}
    .problem{max-width:40rem}
    @media (max-width:40rem){.columns{grid-auto-flow:row;grid-auto-columns:auto}}
    @media (prefers-reduced-motion:no-preference){.vote-button{transition:background-color .15s,color .15s}}
    """#
}
